// Failed sign-ins counted in Redis per email and per address, so every server process shares the count.
import { createHash } from 'node:crypto';
import type { RedisClientType } from 'redis';

export interface LoginLimiterOptions {
  redis: RedisClientType;
  /** Key prefix; tests use a unique one per file. */
  prefix: string;
  maxFailures?: number;
  windowSeconds?: number;
}

export interface LoginAttempt {
  email: string;
  address: string;
}

/**
 * A fixed window per key that starts at the first failure: after `maxFailures` failures within
 * `windowSeconds`, every attempt for that email or from that address is refused until the window
 * ends, whether its password is right or not (otherwise guessing could go on).
 */
export class LoginLimiter {
  private readonly redis: RedisClientType;
  private readonly prefix: string;
  private readonly maxFailures: number;
  private readonly windowSeconds: number;

  constructor({ redis, prefix, maxFailures = 10, windowSeconds = 15 * 60 }: LoginLimiterOptions) {
    this.redis = redis;
    this.prefix = prefix;
    this.maxFailures = maxFailures;
    this.windowSeconds = windowSeconds;
  }

  /** Seconds until an attempt is allowed again, or 0 when it is allowed now. */
  async blockedFor(attempt: LoginAttempt): Promise<number> {
    const keys = this.keys(attempt);
    const counts = await this.redis.mGet(keys);
    let wait = 0;
    for (const [index, count] of counts.entries()) {
      if (Number(count ?? 0) < this.maxFailures) continue;
      const ttl = await this.redis.ttl(keys[index]!);
      wait = Math.max(wait, ttl > 0 ? ttl : 1);
    }
    return wait;
  }

  async recordFailure(attempt: LoginAttempt): Promise<void> {
    const transaction = this.redis.multi();
    for (const key of this.keys(attempt)) {
      transaction.incr(key);
      // NX: the window runs from the first failure, later failures do not extend it.
      transaction.expire(key, this.windowSeconds, 'NX');
    }
    await transaction.exec();
  }

  private keys({ email, address }: LoginAttempt): [string, string] {
    // Hashed so keys hold no personal data and any byte in an email stays a safe key.
    const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);
    return [`${this.prefix}login-failures:email:${digest(email)}`, `${this.prefix}login-failures:address:${digest(address)}`];
  }
}

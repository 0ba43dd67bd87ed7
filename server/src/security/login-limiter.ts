// Sign-in attempts counted in Redis per email and per address, so every server process shares the count.
import { createHash } from 'node:crypto';
import { RateLimitedError } from '@lumibase/shared';
import type { RateLimiterRedis } from 'rate-limiter-flexible';
import type { RedisClientType } from 'redis';
import { consumePoint, createRedisRateLimit } from './redis-rate-limit.js';

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

/** An attempt counted before its password is checked. */
export interface ReservedAttempt {
  /** Gives the count back: the sign-in succeeded (those are not counted), or its password was never checked. */
  release(): Promise<void>;
}

const REFUSAL = 'Too many failed sign-ins; try again later';

/**
 * A fixed window per key that starts at the first attempt: after `maxFailures` failures within
 * `windowSeconds`, every attempt for that email or from that address is refused until the window
 * ends, whether its password is right or not (otherwise guessing could go on).
 *
 * An attempt is reserved (counted) before its password is hashed and given back if it succeeds.
 * Counting after the ~50 ms hash instead let 30 concurrent guesses all pass the check before any
 * of them was counted.
 */
export class LoginLimiter {
  private readonly limits: [RateLimiterRedis, RateLimiterRedis];

  constructor({ redis, prefix, maxFailures = 10, windowSeconds = 15 * 60 }: LoginLimiterOptions) {
    const limit = (kind: string) =>
      createRedisRateLimit({ redis, keyPrefix: `${prefix}login-attempts:${kind}`, points: maxFailures, windowSeconds });
    this.limits = [limit('email'), limit('address')];
  }

  /** Counts the attempt for its email and its address; RateLimitedError (with Retry-After) when either is used up. */
  async reserve(attempt: LoginAttempt): Promise<ReservedAttempt> {
    const keys = this.keys(attempt);
    const results = await Promise.allSettled(this.limits.map((limit, index) => consumePoint(limit, keys[index]!, REFUSAL)));
    const refused = results.filter((result) => result.status === 'rejected').map((result) => result.reason as unknown);
    const giveBack = () =>
      Promise.all(results.map((result, index) => (result.status === 'fulfilled' ? this.limits[index]!.reward(keys[index]!) : null)));
    if (refused.length > 0) {
      // An attempt refused by one key was never checked: it must not use up the other key's count.
      await giveBack();
      const other = refused.find((reason) => !(reason instanceof RateLimitedError));
      if (other !== undefined) throw other;
      const wait = Math.max(...refused.map((reason) => (reason as RateLimitedError).retryAfterSeconds ?? 1));
      throw new RateLimitedError({ message: REFUSAL, retryAfterSeconds: wait });
    }
    return {
      release: async () => {
        await giveBack();
      },
    };
  }

  private keys({ email, address }: LoginAttempt): [string, string] {
    // Hashed so keys hold no personal data and any byte in an email stays a safe key.
    const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);
    return [digest(email), digest(address)];
  }
}

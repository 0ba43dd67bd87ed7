// Counters in Redis (rate-limiter-flexible), shared by every server process; a refusal becomes RateLimitedError.
import { RateLimitedError } from '@lumibase/shared';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RedisClientType } from 'redis';

export interface RedisRateLimitOptions {
  redis: RedisClientType;
  /** The counters' key prefix, the caller's own (tests use a unique one per server). */
  keyPrefix: string;
  points: number;
  windowSeconds: number;
}

/**
 * A fixed window per key that starts with its first point. `consume` counts and checks in one Lua
 * script, so concurrent callers in any process cannot all pass a check that only one of them should.
 */
export function createRedisRateLimit({ redis, keyPrefix, points, windowSeconds }: RedisRateLimitOptions): RateLimiterRedis {
  return new RateLimiterRedis({ storeClient: redis, useRedisPackage: true, keyPrefix, points, duration: windowSeconds });
}

/**
 * Takes one point for `key`. Beyond the limit: RateLimitedError with the seconds until the window
 * ends (its Retry-After). Other failures (Redis unreachable) are thrown as they are.
 */
export async function consumePoint(limiter: RateLimiterRedis, key: string, message: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    throw new RateLimitedError({ message, retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) });
  }
}

// Copilot messages per user per minute, counted in Redis so that every server process shares the count.
import type { RateLimiterRedis } from 'rate-limiter-flexible';
import type { RedisClientType } from 'redis';
import { consumePoint, createRedisRateLimit } from '../../security/redis-rate-limit.js';

export interface ChatRateLimiterOptions {
  redis: RedisClientType;
  /** Key prefix; tests use a unique one per file. */
  prefix: string;
  limitPerMinute: number;
}

export class ChatRateLimiter {
  private readonly limit: RateLimiterRedis;
  private readonly limitPerMinute: number;

  constructor({ redis, prefix, limitPerMinute }: ChatRateLimiterOptions) {
    this.limit = createRedisRateLimit({ redis, keyPrefix: `${prefix}chat-rate`, points: limitPerMinute, windowSeconds: 60 });
    this.limitPerMinute = limitPerMinute;
  }

  /** Counts one message of `userId`; RateLimitedError (with Retry-After) beyond the limit. */
  async consume(userId: string): Promise<void> {
    await consumePoint(this.limit, userId, `Too many Copilot messages: at most ${this.limitPerMinute} per minute`);
  }
}

// Copilot messages per user per minute, counted in Redis so that every server process shares the count.
import { RateLimitedError } from '@lumibase/shared';
import type { RedisClientType } from 'redis';

export interface ChatRateLimiterOptions {
  redis: RedisClientType;
  /** Key prefix; tests use a unique one per file. */
  prefix: string;
  limitPerMinute: number;
}

const WINDOW_MS = 60_000;

/**
 * A sliding window: a sorted set of the user's accepted messages by time. One script, so that the
 * check and the record are atomic across processes; the time is Redis's, so servers with skewed
 * clocks still agree. Answers 0 when accepted, else the milliseconds until a slot frees up.
 */
const SLIDING_WINDOW = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + window - now)
end
redis.call('ZADD', KEYS[1], now, now .. '-' .. ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return 0
`;

export class ChatRateLimiter {
  private readonly redis: RedisClientType;
  private readonly prefix: string;
  private readonly limitPerMinute: number;
  private sequence = 0;

  constructor({ redis, prefix, limitPerMinute }: ChatRateLimiterOptions) {
    this.redis = redis;
    this.prefix = prefix;
    this.limitPerMinute = limitPerMinute;
  }

  /** Counts one message of `userId`; RateLimitedError (with Retry-After) beyond the limit. */
  async consume(userId: string): Promise<void> {
    // Unique within the millisecond across processes: two messages at once are two entries.
    this.sequence += 1;
    const member = `${process.pid}-${this.sequence}-${Math.random().toString(36).slice(2, 10)}`;
    const waitMs = Number(
      await this.redis.eval(SLIDING_WINDOW, {
        keys: [`${this.prefix}chat-rate:${userId}`],
        arguments: [String(WINDOW_MS), String(this.limitPerMinute), member],
      }),
    );
    if (waitMs > 0) {
      throw new RateLimitedError({
        message: `Too many Copilot messages: at most ${this.limitPerMinute} per minute`,
        retryAfterSeconds: Math.ceil(waitMs / 1000),
      });
    }
  }
}

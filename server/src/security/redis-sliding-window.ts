// A sliding-window log in Redis: at most `limit` accepted events per key in any `windowMs`, counted
// across every server. One Lua script drops the key's events older than the window, counts the rest
// and records the new one only when under the limit, atomically; a refusal records nothing. Times
// are Redis's own clock (one clock for every server) unless the caller injects one (tests).
import { createHash, randomBytes } from 'node:crypto';
import type { RedisClientType } from 'redis';

const SCRIPT = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if now < 0 then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now, now .. ':' .. ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
  return {1, 0}
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {0, tonumber(oldest[2]) + window - now}
`;
const SCRIPT_SHA = createHash('sha1').update(SCRIPT).digest('hex');

export interface SlidingWindowOptions {
  redis: RedisClientType;
  limit: number;
  windowMs: number;
  /** Tests inject time; otherwise Redis's clock decides. */
  clock?: () => Date;
}

export type SlidingWindowAnswer = { accepted: true } | { accepted: false; retryAfterMs: number };

export class RedisSlidingWindow {
  constructor(private readonly options: SlidingWindowOptions) {}

  /** Records one event for `key` if fewer than `limit` happened in the last `windowMs`. */
  async take(key: string): Promise<SlidingWindowAnswer> {
    const { redis, limit, windowMs, clock } = this.options;
    const args = [String(limit), String(windowMs), String(clock ? clock().getTime() : -1), randomBytes(6).toString('hex')];
    const reply = (await this.run(redis, key, args)) as [number, number];
    return reply[0] === 1 ? { accepted: true } : { accepted: false, retryAfterMs: Math.max(1, reply[1]) };
  }

  /** EVALSHA, falling back to EVAL once when Redis has not cached the script (after a restart too). */
  private async run(redis: RedisClientType, key: string, args: string[]): Promise<unknown> {
    try {
      return await redis.evalSha(SCRIPT_SHA, { keys: [key], arguments: args });
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(SCRIPT, { keys: [key], arguments: args });
    }
  }
}

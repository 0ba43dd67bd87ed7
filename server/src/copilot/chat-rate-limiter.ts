// Model and embedding calls per user: at most CHAT_RATE_LIMIT_PER_MINUTE in any 60 seconds (a sliding window,
// so no burst across a minute boundary), counted in Redis so that every server process shares it. /ai/chat counts
// each model call of a turn, /ai/skills/:name and /ai/search each request (docs/API.md, "The gate's tiers and limits").
import { RateLimitedError } from '@lumibase/shared';
import type { RedisClientType } from 'redis';
import { RedisSlidingWindow } from '../security/redis-sliding-window.js';

export interface ChatRateLimiterOptions {
  redis: RedisClientType;
  /** Key prefix; tests use a unique one per file. */
  prefix: string;
  limitPerMinute: number;
  /** Tests inject time; otherwise Redis's clock decides. */
  clock?: () => Date;
}

const MINUTE_MS = 60_000;

export class ChatRateLimiter {
  private readonly window: RedisSlidingWindow;
  private readonly prefix: string;
  private readonly limitPerMinute: number;

  constructor({ redis, prefix, limitPerMinute, clock }: ChatRateLimiterOptions) {
    this.window = new RedisSlidingWindow({ redis, limit: limitPerMinute, windowMs: MINUTE_MS, ...(clock ? { clock } : {}) });
    this.prefix = prefix;
    this.limitPerMinute = limitPerMinute;
  }

  /** Counts one model call of `userId`; RateLimitedError (with Retry-After) beyond the limit. A refusal is not counted. */
  async consume(userId: string): Promise<void> {
    const answer = await this.window.take(`${this.prefix}chat-rate-window:${userId}`);
    if (answer.accepted) return;
    throw new RateLimitedError({
      message: `Too many Copilot requests: at most ${this.limitPerMinute} model calls per minute`,
      retryAfterSeconds: Math.max(1, Math.ceil(answer.retryAfterMs / 1000)),
    });
  }
}

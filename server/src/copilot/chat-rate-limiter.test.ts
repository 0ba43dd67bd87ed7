// The chat rate limit against real Redis: per user, in any 60 seconds (sliding), shared by every process.
import { randomBytes } from 'node:crypto';
import { RateLimitedError } from '@lumibase/shared';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatRateLimiter } from './chat-rate-limiter.js';

const url = process.env.LUMIBASE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `test-chat-rate-${randomBytes(4).toString('hex')}:`;
let first: RedisClientType;
let second: RedisClientType;

beforeAll(async () => {
  first = createClient({ url });
  second = createClient({ url });
  await Promise.all([first.connect(), second.connect()]);
});
afterAll(async () => {
  const keys = await first.keys(`${prefix}*`);
  if (keys.length > 0) await first.del(keys);
  await Promise.all([first.quit(), second.quit()]);
});

describe('ChatRateLimiter', () => {
  it('accepts the limit per minute and refuses the next with a Retry-After within the minute', async () => {
    const limiter = new ChatRateLimiter({ redis: first, prefix, limitPerMinute: 3 });
    for (let message = 0; message < 3; message += 1) await limiter.consume('u-solo');
    const error = await limiter.consume('u-solo').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect((error as RateLimitedError).retryAfterSeconds).toBeLessThanOrEqual(60);
    // A refusal does not extend the window: the user may write again within the minute.
    const again = await limiter.consume('u-solo').catch((caught: unknown) => caught);
    expect((again as RateLimitedError).retryAfterSeconds).toBeLessThanOrEqual((error as RateLimitedError).retryAfterSeconds!);
  });

  it('never lets a user send more than the limit in any 60 s, not even across a minute boundary', async () => {
    let now = Date.parse('2026-01-01T10:00:00.000Z');
    const at = (seconds: number) => {
      now = Date.parse('2026-01-01T10:00:00.000Z') + seconds * 1000;
    };
    const here = new ChatRateLimiter({ redis: first, prefix, limitPerMinute: 4, clock: () => new Date(now) });
    const there = new ChatRateLimiter({ redis: second, prefix, limitPerMinute: 4, clock: () => new Date(now) });
    const batch = async (count: number) => {
      const settled = await Promise.allSettled(
        Array.from({ length: count }, (_, index) => (index % 2 ? here : there).consume('u-boundary')),
      );
      return settled.filter((result) => result.status === 'fulfilled').length;
    };
    at(0);
    expect(await batch(1)).toBe(1);
    at(59);
    expect(await batch(3)).toBe(3);
    // Second 61: the one from second 0 has left the window, the three from second 59 have not.
    at(61);
    expect(await batch(4)).toBe(1);
    const refused = await here.consume('u-boundary').catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(RateLimitedError);
    // The next slot frees when the second-59 messages are 60 s old: at second 119.
    expect((refused as RateLimitedError).retryAfterSeconds).toBe(58);
    at(118.5);
    expect(await batch(1)).toBe(0);
    at(119.5);
    expect(await batch(4)).toBe(3);
  });

  it('counts each user on their own', async () => {
    const limiter = new ChatRateLimiter({ redis: first, prefix, limitPerMinute: 1 });
    await limiter.consume('u-one');
    await expect(limiter.consume('u-two')).resolves.toBeUndefined();
    await expect(limiter.consume('u-one')).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('shares the count between processes (two clients), even for messages at the same moment', async () => {
    const here = new ChatRateLimiter({ redis: first, prefix, limitPerMinute: 5 });
    const there = new ChatRateLimiter({ redis: second, prefix, limitPerMinute: 5 });
    const attempts = Array.from({ length: 12 }, (_, index) => (index % 2 === 0 ? here : there).consume('u-shared'));
    const settled = await Promise.allSettled(attempts);
    expect(settled.filter((result) => result.status === 'fulfilled')).toHaveLength(5);
    expect(settled.filter((result) => result.status === 'rejected' && result.reason instanceof RateLimitedError)).toHaveLength(7);
  });
});

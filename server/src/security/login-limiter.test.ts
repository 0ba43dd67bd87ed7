// The sign-in limiter against real Redis: per email, per address, windowed, atomic, shared between processes.
import { randomBytes } from 'node:crypto';
import { RateLimitedError } from '@lumibase/shared';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginLimiter } from './login-limiter.js';

const prefix = `test-login-limiter-${randomBytes(4).toString('hex')}:`;
let first: RedisClientType;
let second: RedisClientType;

beforeAll(async () => {
  first = createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
  second = createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
  await Promise.all([first.connect(), second.connect()]);
});
afterAll(async () => {
  const keys = await first.keys(`${prefix}*`);
  if (keys.length > 0) await first.del(keys);
  await Promise.all([first.quit(), second.quit()]);
});

describe('LoginLimiter', () => {
  it('refuses the 11th attempt for an email, counted by two processes together, with the rest of the window as Retry-After', async () => {
    const a = new LoginLimiter({ redis: first, prefix });
    const b = new LoginLimiter({ redis: second, prefix });
    for (let failure = 0; failure < 10; failure += 1)
      await (failure % 2 ? a : b).reserve({ email: 'victim@example.test', address: `192.0.2.${failure}` });
    const refused = await a.reserve({ email: 'victim@example.test', address: '198.51.100.1' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBeGreaterThan(15 * 60 - 5);
    expect((refused as RateLimitedError).retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
    await expect(b.reserve({ email: 'someone-else@example.test', address: '198.51.100.1' })).resolves.toBeDefined();
  });

  it('refuses an address after 10 attempts across emails', async () => {
    const limiter = new LoginLimiter({ redis: first, prefix });
    for (let failure = 0; failure < 10; failure += 1)
      await limiter.reserve({ email: `guess${failure}@example.test`, address: '203.0.113.7' });
    await expect(limiter.reserve({ email: 'fresh@example.test', address: '203.0.113.7' })).rejects.toBeInstanceOf(RateLimitedError);
    await expect(limiter.reserve({ email: 'fresh@example.test', address: '203.0.113.8' })).resolves.toBeDefined();
  });

  it('reserves atomically: of 30 attempts at once from two processes, exactly 10 pass', async () => {
    const a = new LoginLimiter({ redis: first, prefix });
    const b = new LoginLimiter({ redis: second, prefix });
    const settled = await Promise.allSettled(
      Array.from({ length: 30 }, (_, index) =>
        (index % 2 ? a : b).reserve({ email: 'raced@example.test', address: `192.0.2.${100 + index}` }),
      ),
    );
    expect(settled.filter((result) => result.status === 'fulfilled')).toHaveLength(10);
    expect(settled.filter((result) => result.status === 'rejected' && result.reason instanceof RateLimitedError)).toHaveLength(20);
  });

  it('does not count released attempts (successes), nor an attempt the other key refused', async () => {
    const limiter = new LoginLimiter({ redis: first, prefix, maxFailures: 2 });
    for (let success = 0; success < 5; success += 1)
      await (await limiter.reserve({ email: 'ok@example.test', address: '203.0.113.20' })).release();
    await limiter.reserve({ email: 'ok@example.test', address: '203.0.113.20' });
    // The address 203.0.113.21 is used up by other emails; its refusals leave ok@'s count alone.
    for (const email of ['x@example.test', 'y@example.test']) await limiter.reserve({ email, address: '203.0.113.21' });
    for (let refused = 0; refused < 3; refused += 1)
      await expect(limiter.reserve({ email: 'ok@example.test', address: '203.0.113.21' })).rejects.toBeInstanceOf(RateLimitedError);
    await expect(limiter.reserve({ email: 'ok@example.test', address: '203.0.113.22' })).resolves.toBeDefined();
  });

  it('forgets attempts once the window has passed', async () => {
    const limiter = new LoginLimiter({ redis: first, prefix: `${prefix}short:`, maxFailures: 2, windowSeconds: 1 });
    const attempt = { email: 'brief@example.test', address: '203.0.113.9' };
    await limiter.reserve(attempt);
    await limiter.reserve(attempt);
    await expect(limiter.reserve(attempt)).rejects.toBeInstanceOf(RateLimitedError);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await expect(limiter.reserve(attempt)).resolves.toBeDefined();
  });
});

// The failed-login limiter against real Redis: per email, per address, windowed, shared between processes.
import { randomBytes } from 'node:crypto';
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
  it('blocks an email after 10 failures counted by two processes together', async () => {
    const a = new LoginLimiter({ redis: first, prefix });
    const b = new LoginLimiter({ redis: second, prefix });
    for (let failure = 0; failure < 10; failure += 1) {
      expect(await (failure % 2 ? a : b).blockedFor({ email: 'victim@example.test', address: `192.0.2.${failure}` })).toBe(0);
      await (failure % 2 ? a : b).recordFailure({ email: 'victim@example.test', address: `192.0.2.${failure}` });
    }
    const wait = await a.blockedFor({ email: 'victim@example.test', address: '198.51.100.1' });
    expect(wait).toBeGreaterThan(15 * 60 - 5);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    expect(await b.blockedFor({ email: 'someone-else@example.test', address: '198.51.100.1' })).toBe(0);
  });

  it('blocks an address after 10 failures across emails', async () => {
    const limiter = new LoginLimiter({ redis: first, prefix });
    for (let failure = 0; failure < 10; failure += 1)
      await limiter.recordFailure({ email: `guess${failure}@example.test`, address: '203.0.113.7' });
    expect(await limiter.blockedFor({ email: 'fresh@example.test', address: '203.0.113.7' })).toBeGreaterThan(0);
    expect(await limiter.blockedFor({ email: 'fresh@example.test', address: '203.0.113.8' })).toBe(0);
  });

  it('forgets failures once the window has passed', async () => {
    const limiter = new LoginLimiter({ redis: first, prefix: `${prefix}short:`, maxFailures: 2, windowSeconds: 1 });
    const attempt = { email: 'brief@example.test', address: '203.0.113.9' };
    await limiter.recordFailure(attempt);
    await limiter.recordFailure(attempt);
    expect(await limiter.blockedFor(attempt)).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await limiter.blockedFor(attempt)).toBe(0);
  });
});

// `npm start` and `npm run start:server` as a user runs them: embedded defaults, health probes, bad config, shutdown.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRedis } from '../../server/src/infrastructure/resolve-redis.js';
import { createLogger } from '../../server/src/logger.js';
import { freePort, startTs, stopAll, waitForHttp } from '../support/processes.js';

const dataDir = mkdtempSync(join(tmpdir(), 'lumibase-startup-'));
afterAll(async () => {
  await stopAll();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('start-up', () => {
  it('stops with one line naming the variable when PORT=abc', async () => {
    const started = startTs('workers/src/all-in-one.ts', { env: { PORT: 'abc', DATA_DIR: dataDir } });
    expect(await started.exited).toBe(1);
    expect(started.output().trim()).toBe('Invalid configuration: PORT must be an integer from 0 to 65535 (got "abc")');
  });

  it('runs all-in-one on PORT with embedded MongoDB, answers /healthz and /readyz, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const started = startTs('workers/src/all-in-one.ts', {
      env: {
        PORT: String(port),
        DATA_DIR: join(dataDir, 'all-in-one'),
        LUMIBASE_DEMO: 'false',
        REDIS_URL: process.env.LUMIBASE_TEST_REDIS_URL ?? '',
      },
    });
    await started.waitForLine(/LumiBase server listening/);
    const health = await waitForHttp(`http://127.0.0.1:${port}/healthz`);
    expect(await health.json()).toEqual({ data: { status: 'ok' } });
    const ready = await waitForHttp(`http://127.0.0.1:${port}/readyz`);
    expect(await ready.json()).toEqual({ data: { status: 'ready', checks: { mongo: 'ok', redis: 'ok' } } });
    expect(started.output()).toMatch(/started embedded MongoDB-wire server/);
    expect(await started.stop('SIGTERM')).toBe(0);
  });

  it('stops cleanly on a SIGTERM that comes while it still starts (the server listens, the workers start after it)', async () => {
    const port = await freePort();
    const started = startTs('workers/src/all-in-one.ts', {
      env: {
        PORT: String(port),
        DATA_DIR: join(dataDir, 'early-stop'),
        LUMIBASE_DEMO: 'false',
        REDIS_URL: process.env.LUMIBASE_TEST_REDIS_URL ?? '',
      },
    });
    await started.waitForLine(/LumiBase server listening/);
    // A process without its handler yet dies of the signal itself: exit code null, nothing stopped in order.
    expect(await started.stop('SIGTERM')).toBe(0);
    expect(started.output()).toMatch(/shutting down/);
  });

  it('answers /readyz 503 (and /healthz 200) while Redis is down', async () => {
    const redis = await resolveRedis({
      url: undefined,
      dataDir: join(dataDir, 'redis-owned'),
      logger: createLogger({ level: 'silent' }),
      localPort: 1,
    });
    const port = await freePort();
    const started = startTs('server/src/main.ts', { env: { PORT: String(port), DATA_DIR: join(dataDir, 'server'), REDIS_URL: redis.url } });
    await waitForHttp(`http://127.0.0.1:${port}/readyz`);
    await redis.stop();
    const notReady = await waitForHttp(`http://127.0.0.1:${port}/readyz`, { status: 503, timeoutMs: 10_000 });
    expect(await notReady.json()).toMatchObject({ data: { status: 'unavailable', checks: { redis: 'down', mongo: 'ok' } } });
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect(await started.stop('SIGTERM')).toBe(0);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { redisAnswers, resolveRedis } from './resolve-redis.js';

const logger = createLogger({ level: 'silent' });
const dataDir = mkdtempSync(join(tmpdir(), 'lumibase-redis-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('resolveRedis', () => {
  it('uses REDIS_URL as given, without probing or spawning', async () => {
    const resolved = await resolveRedis({ url: 'redis://example.invalid:6390', dataDir, logger });
    expect(resolved).toMatchObject({ url: 'redis://example.invalid:6390', source: 'configured' });
  });

  it('uses a Redis that answers on the local port', async () => {
    const resolved = await resolveRedis({ url: undefined, dataDir, logger, localPort: 6379 });
    expect(resolved).toMatchObject({ url: 'redis://127.0.0.1:6379', source: 'local' });
  });

  it('spawns redis-server with its data under DATA_DIR/redis when nothing answers, and stops it', async () => {
    const resolved = await resolveRedis({ url: undefined, dataDir, logger, localPort: 1 });
    expect(resolved.source).toBe('spawned');
    const port = Number(new URL(resolved.url).port);
    expect(await redisAnswers('127.0.0.1', port)).toBe(true);
    await resolved.stop();
    expect(await redisAnswers('127.0.0.1', port)).toBe(false);
  });
});

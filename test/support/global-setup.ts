// Once per `npm test`: find or start the Redis every queue and rate-limit test talks to, and hand its URL to the
// tests as LUMIBASE_TEST_REDIS_URL (127.0.0.1:6379 when it answers, else a redis-server spawned for this run).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../server/src/logger.js';
import { resolveRedis } from '../../server/src/infrastructure/resolve-redis.js';

export default async function setup(): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lumibase-test-redis-'));
  const redis = await resolveRedis({ url: process.env.LUMIBASE_TEST_REDIS_URL, dataDir, logger: createLogger({ level: 'warn' }) });
  process.env.LUMIBASE_TEST_REDIS_URL = redis.url;
  return async () => {
    await redis.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

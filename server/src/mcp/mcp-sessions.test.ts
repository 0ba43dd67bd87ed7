// The MCP session table against real Redis: scoped to user and site, expiring when unused, its reads capped like a turn's.
import { randomBytes } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_BEFORE_MAX } from '../gate/content-reads.js';
import { cleanClientName, redisMcpSessions } from './mcp-sessions.js';

const url = process.env.LUMIBASE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `test-mcp-sessions-${randomBytes(4).toString('hex')}`;
const scope = { siteId: 'site-a', userId: 'user-1' };
let redis: RedisClientType;

beforeAll(async () => {
  redis = createClient({ url });
  await redis.connect();
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(keys);
  await redis.quit();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('redisMcpSessions', () => {
  it('finds a session only for the user and site that opened it', async () => {
    const sessions = redisMcpSessions(redis, prefix);
    const id = await sessions.open(scope, 'Claude Desktop');
    expect(await sessions.find(scope, id)).toEqual({ client: 'Claude Desktop', readBefore: [] });
    expect(await sessions.find({ ...scope, userId: 'user-2' }, id)).toBeUndefined();
    expect(await sessions.find({ ...scope, siteId: 'site-b' }, id)).toBeUndefined();
    expect(await sessions.find(scope, 'not a session id')).toBeUndefined();
  });

  it('forgets a session unused for its idle time, and keeps one in use', async () => {
    const sessions = redisMcpSessions(redis, prefix, 2);
    const idle = await sessions.open(scope, 'idle');
    const busy = await sessions.open(scope, 'busy');
    await sessions.noteReads(scope, idle, [{ skill: 'listItems', collection: 'posts' }]);
    // Used every 0.4 s for 2.4 s: each use restarts its 2 s; the idle one's ran out 0.4 s before the last look.
    for (let use = 0; use < 6; use++) {
      await sleep(400);
      expect(await sessions.find(scope, busy)).toBeDefined();
    }
    expect(await sessions.find(scope, idle)).toBeUndefined();
    expect(await redis.keys(`${prefix}:mcp-session:{${scope.siteId}:${scope.userId}:${idle}}*`)).toEqual([]);
  });

  it('keeps the earliest reads up to the cap, and forgets them with the session when it ends', async () => {
    const sessions = redisMcpSessions(redis, prefix);
    const id = await sessions.open(scope, undefined);
    const reads = Array.from({ length: READ_BEFORE_MAX + 5 }, (_, index) => ({ skill: 'listItems', collection: 'posts', id: `i${index}` }));
    await sessions.noteReads(scope, id, reads.slice(0, 10));
    await sessions.noteReads(scope, id, reads.slice(10));
    expect(await sessions.find(scope, id)).toEqual({ client: undefined, readBefore: reads.slice(0, READ_BEFORE_MAX) });
    expect(await sessions.close({ ...scope, userId: 'user-2' }, id)).toBe(false);
    expect(await sessions.close(scope, id)).toBe(true);
    expect(await sessions.find(scope, id)).toBeUndefined();
    expect(await sessions.close(scope, id)).toBe(false);
  });
});

describe('cleanClientName', () => {
  it('keeps a name printable, on one line and at most 100 characters; nothing left is no name', () => {
    expect(cleanClientName('Claude\nDesktop\u200b')).toBe('Claude Desktop');
    expect(cleanClientName('x'.repeat(150))).toHaveLength(100);
    expect(cleanClientName(' \u0000 ')).toBeUndefined();
    expect(cleanClientName(42)).toBeUndefined();
  });
});

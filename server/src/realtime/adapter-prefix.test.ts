// Two deployments on one Redis (different QUEUE_PREFIX): a site event of one, from a server or a worker's emitter,
// reaches its own servers and never the other deployment's; what else in a server hears site events (a decision
// waiting for its approval's outcome) hears its own and those of every other process of its deployment.
import { randomBytes } from 'node:crypto';
import { Emitter } from '@socket.io/redis-emitter';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { SITE_EVENT_CHANNEL, type SiteEvent } from '@lumibase/shared';
import { createSocketServer, socketIoKey } from './socket-server.js';

type SocketServer = Awaited<ReturnType<typeof createSocketServer>>;

const logger = createLogger({ level: 'silent' });
const prefixA = `test-adapter-a-${randomBytes(4).toString('hex')}`;
const prefixB = `test-adapter-b-${randomBytes(4).toString('hex')}`;
let redis: RedisClientType;
let emitterClient: RedisClientType;
let a1: SocketServer;
let a2: SocketServer;
let b: SocketServer;
const heardBy = { a1: [] as number[], a2: [] as number[], b: [] as number[] };

function event(seq: number): SiteEvent {
  const siteId = '64b000000000000000000001';
  return { name: 'content-changed', payload: { seq, siteId, kind: 'item', action: 'created', collection: 'posts' } };
}

async function until(check: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((wait) => setTimeout(wait, 20));
  }
}

beforeAll(async () => {
  redis = createClient({ url: process.env.LUMIBASE_TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
  await redis.connect();
  emitterClient = redis.duplicate();
  await emitterClient.connect();
  [a1, a2, b] = await Promise.all([
    createSocketServer({ logger, redis, prefix: prefixA }),
    createSocketServer({ logger, redis, prefix: prefixA }),
    createSocketServer({ logger, redis, prefix: prefixB }),
  ]);
  a1.observe((heard) => void heardBy.a1.push(heard.payload.seq));
  a2.observe((heard) => void heardBy.a2.push(heard.payload.seq));
  b.observe((heard) => void heardBy.b.push(heard.payload.seq));
  // The adapters' subscriptions settle before the first publish.
  await new Promise((settle) => setTimeout(settle, 300));
});
afterAll(async () => {
  await Promise.all([a1?.close(), a2?.close(), b?.close()]);
  await emitterClient?.quit();
  await redis?.quit();
});

describe('the socket.io channel under QUEUE_PREFIX', () => {
  it("carries a server's event to its own deployment's servers only", async () => {
    a1.publish(event(1));
    await until(() => heardBy.a2.includes(1));
    await new Promise((settle) => setTimeout(settle, 300));
    expect(heardBy.b).toEqual([]);
    // Its own event, once: the adapter does not hand a server back what it sent.
    expect(heardBy.a1.filter((seq) => seq === 1)).toEqual([1]);
  });

  it("carries a worker emitter's event (keyed by the same prefix) to its own deployment's servers only", async () => {
    new Emitter(emitterClient, { key: socketIoKey(prefixA) }).serverSideEmit(SITE_EVENT_CHANNEL, event(2));
    await until(() => heardBy.a2.includes(2) && heardBy.a1.includes(2));
    await new Promise((settle) => setTimeout(settle, 300));
    expect(heardBy.b).toEqual([]);
  });
});

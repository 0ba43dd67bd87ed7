// A site's policy is read from MongoDB once per policy version, and a change answered by any process is what the very
// next read in every other process sees: two processes (own connections, own caches) sharing MongoDB and Redis.
import { randomBytes } from 'node:crypto';
import { Types } from 'mongoose';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../test-support/test-database.js';
import { createTestStores } from '../../../test-support/test-stores.js';
import { openWatchedConnection, type WatchedConnection } from '../../../test-support/watched-connection.js';
import type { AiStores } from './ai-stores.js';
import { encodeJson } from '../json-codec.js';
import { RedisPolicyVersions } from './policy-versions.js';

const prefix = `policy-versions-${randomBytes(4).toString('hex')}:`;
let database: TestDatabase;
let watched: WatchedConnection;
const clients: RedisClientType[] = [];
let a: AiStores;
let b: AiStores;

/** One process's AI stores: its own Redis client and policy cache, the deployment's prefix. */
async function processOn(connection: WatchedConnection['connection']): Promise<AiStores> {
  const redis: RedisClientType = createClient({
    url: process.env.LUMIBASE_TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  });
  await redis.connect();
  clients.push(redis);
  return (await createTestStores(connection, { policyVersions: new RedisPolicyVersions(redis, prefix) })).aiStores;
}

beforeAll(async () => {
  database = await openTestDatabase('policy_versions');
  watched = await openWatchedConnection(database);
  a = await processOn(watched.connection);
  b = await processOn(await database.connect());
});
afterAll(async () => {
  const keys = await clients[0]!.keys(`${prefix}*`);
  if (keys.length > 0) await clients[0]!.del(keys);
  await Promise.all(clients.map((client) => client.quit()));
  await watched.close();
  await database.close();
});

const freshSite = () => new Types.ObjectId().toHexString();

describe('a site’s Copilot policy under its version', () => {
  it('is read from MongoDB once per version, and what a caller does with its copy stays with it', async () => {
    const policyInA = a.forSite(freshSite()).policy;
    const first = await policyInA.get();
    expect(first.skills.createItem).toBe('auto');
    first.skills.createItem = 'off';
    watched.take();
    const again = await policyInA.get();
    expect(watched.take(), 'the same version: nothing read from MongoDB').toEqual([]);
    expect(again.skills.createItem, 'the first caller changing its copy changed nothing kept').toBe('auto');
  });

  it('changed in process B: the very next read in process A, its cache warm, sees the change', async () => {
    const siteId = freshSite();
    const policyInA = a.forSite(siteId).policy;
    expect((await policyInA.get()).skills.createItem).toBe('auto');
    expect((await policyInA.get()).skills.createItem).toBe('auto');

    await b.forSite(siteId).policy.update({ skills: { createItem: 'off' } }, new Date());
    expect((await policyInA.get()).skills.createItem).toBe('off');
    watched.take();
    await policyInA.get();
    expect(watched.take(), 'the new version is learned once').toEqual([]);
  });

  it('whose version Redis lost (flushed, restarted empty) is read again, never taken for the old one', async () => {
    const siteId = freshSite();
    const policyInA = a.forSite(siteId).policy;
    await policyInA.get();
    // A change whose version move was lost with Redis: only the database has it.
    await clients[0]!.del(`${prefix}policy-version:${siteId}`);
    await a.models.policies.updateOne(
      { siteId: new Types.ObjectId(siteId) },
      { $set: { skillsJson: encodeJson({ createItem: 'ask' }), limitsJson: encodeJson({}), updatedAt: new Date() } },
      { upsert: true },
    );
    expect((await policyInA.get()).skills.createItem).toBe('ask');
  });
});

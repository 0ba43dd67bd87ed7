// TTL indexes remove documents whose date has passed (the event log relies on it).
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestTarget, realMongoUri, type TestTarget } from './test-target.js';

// mongod's TTL monitor runs every 60 s; the embedded one every second.
const WAIT_LIMIT_MS = realMongoUri ? 150_000 : 10_000;

async function waitFor(check: () => Promise<boolean>, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('embedded mongo: TTL indexes', () => {
  let target: TestTarget;
  let db: Db;

  beforeAll(async () => {
    target = await openTestTarget();
    db = target.client.db(target.uniqueDbName('ttl'));
  });
  afterAll(() => target.close());

  it(
    'expires documents whose indexed date is older than expireAfterSeconds and keeps the rest',
    async () => {
      const events = db.collection('events');
      await events.createIndex({ createdAt: 1 }, { expireAfterSeconds: 60 });
      const old = new Date(Date.now() - 5 * 60_000);
      await events.insertMany([
        { kind: 'old', createdAt: old },
        { kind: 'old-array', createdAt: [new Date(), old] },
        { kind: 'fresh', createdAt: new Date() },
        { kind: 'not-a-date', createdAt: 'yesterday' },
        { kind: 'no-field' },
      ]);
      await waitFor(async () => (await events.countDocuments({ kind: { $in: ['old', 'old-array'] } })) === 0, WAIT_LIMIT_MS);
      const left = (await events.find({}).toArray()).map((event) => event.kind).sort();
      expect(left).toEqual(['fresh', 'no-field', 'not-a-date']);
    },
    WAIT_LIMIT_MS + 5_000,
  );
});

// Database-level commands: collections, databases, unknown commands and refused transactions.
import type { Db, Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestTarget, type TestTarget } from './test-target.js';

describe('embedded mongo: collection and server commands through the official driver', () => {
  let target: TestTarget;
  let db: Db;

  beforeAll(async () => {
    target = await openTestTarget();
    db = target.client.db(target.uniqueDbName('commands'));
  });
  afterAll(() => target.close());

  it('creates a collection explicitly and refuses to create it twice (NamespaceExists, 48)', async () => {
    await db.createCollection('explicit');
    const error = await db.createCollection('explicit').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 48 });
  });

  it('lists collections with a filter and with nameOnly', async () => {
    await db.collection('listed_a').insertOne({});
    await db.collection('listed_b').insertOne({});
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((entry) => entry.name).sort();
    expect(names).toEqual(expect.arrayContaining(['explicit', 'listed_a', 'listed_b']));
    const filtered = await db.listCollections({ name: 'listed_a' }).toArray();
    expect(filtered).toHaveLength(1);
    expect(filtered[0]).toMatchObject({ name: 'listed_a', type: 'collection' });
  });

  it('drops a collection with its documents and indexes', async () => {
    const docs = db.collection('to_drop');
    await docs.createIndex({ a: 1 });
    await docs.insertOne({ a: 1 });
    expect(await docs.drop()).toBe(true);
    expect(await docs.countDocuments()).toBe(0);
    expect((await db.listCollections({ name: 'to_drop' }).toArray()).length).toBe(0);
  });

  it('keeps databases apart and drops one database without touching another', async () => {
    const other = target.client.db(target.uniqueDbName('commands_other'));
    await other.collection('shared_name').insertOne({ from: 'other' });
    await db.collection('shared_name').insertOne({ from: 'main' });
    expect(
      await other
        .collection('shared_name')
        .find({}, { projection: { _id: 0 } })
        .toArray(),
    ).toEqual([{ from: 'other' }]);
    await other.dropDatabase();
    expect(await other.collection('shared_name').countDocuments()).toBe(0);
    expect(await db.collection('shared_name').countDocuments()).toBe(1);
  });

  it('answers an unknown command with CommandNotFound (59)', async () => {
    const error = await db.command({ frobnicate: 1 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 59, codeName: 'CommandNotFound' });
  });

  it('refuses a transaction with IllegalOperation (20) and commits nothing', async () => {
    const docs = db.collection('txn');
    const session = target.client.startSession();
    try {
      session.startTransaction();
      const error = await docs.insertOne({ inTxn: true }, { session }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 20 });
      await session.abortTransaction().catch(() => {});
    } finally {
      await session.endSession();
    }
    const raw = await db
      .command({
        insert: 'txn',
        documents: [{ raw: true }],
        txnNumber: 1,
        autocommit: false,
        startTransaction: true,
        lsid: { id: session.id?.id },
      } as Document)
      .catch((caught: unknown) => caught);
    expect(raw).toMatchObject({ code: 20 });
    expect(await docs.countDocuments()).toBe(0);
  });

  it('answers the legacy isMaster spelling and endSessions', async () => {
    const legacy = await db.admin().command({ isMaster: 1 });
    expect(legacy).toMatchObject({ ismaster: true, ok: 1 });
    expect(legacy.maxBsonObjectSize).toBe(16 * 1024 * 1024);
    const session = target.client.startSession();
    await db.collection('sessions').insertOne({}, { session });
    expect(await db.admin().command({ endSessions: [session.id] })).toMatchObject({ ok: 1 });
    await session.endSession();
  });

  it('reports build info and the feature compatibility version', async () => {
    const info = await db.admin().command({ buildInfo: 1 });
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Array.isArray(info.versionArray)).toBe(true);
    const parameter = await db.admin().command({ getParameter: 1, featureCompatibilityVersion: 1 });
    expect(parameter.featureCompatibilityVersion.version).toMatch(/^\d+\.\d+$/);
  });
});

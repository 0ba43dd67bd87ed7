// The first thing every store test relies on: handshake, CRUD, findAndModify and unique indexes.
import { type Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestTarget, type TestTarget } from './test-target.js';

describe('embedded mongo: basic CRUD through the official driver', () => {
  let target: TestTarget;
  let db: Db;

  beforeAll(async () => {
    target = await openTestTarget();
    db = target.client.db(target.uniqueDbName('basic'));
  });
  afterAll(() => target.close());

  it('answers the handshake and ping', async () => {
    expect(await db.command({ ping: 1 })).toMatchObject({ ok: 1 });
    const hello = await db.admin().command({ hello: 1 });
    expect(hello.isWritablePrimary).toBe(true);
    expect(hello.maxWireVersion).toBeGreaterThanOrEqual(8);
    expect(hello.logicalSessionTimeoutMinutes).toBeGreaterThan(0);
  });

  it('inserts and finds documents, generating an ObjectId _id', async () => {
    const users = db.collection('users');
    const { insertedId } = await users.insertOne({ name: 'ada', profile: { city: 'London' } });
    expect(insertedId.toHexString()).toMatch(/^[0-9a-f]{24}$/);
    expect(await users.findOne({ _id: insertedId })).toEqual({ _id: insertedId, name: 'ada', profile: { city: 'London' } });
    expect(await users.findOne({ 'profile.city': 'London' })).toMatchObject({ name: 'ada' });
    expect(await users.findOne({ name: 'nobody' })).toBeNull();
  });

  it('updates with operators and reports matched and modified counts', async () => {
    const items = db.collection<{ _id: number; qty: number; tags: string[] }>('items');
    await items.insertMany([
      { _id: 1, qty: 1, tags: ['a'] },
      { _id: 2, qty: 5, tags: [] },
    ]);
    const result = await items.updateOne({ _id: 1 }, { $inc: { qty: 2 }, $push: { tags: 'b' } });
    expect(result).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    expect(await items.findOne({ _id: 1 })).toEqual({ _id: 1, qty: 3, tags: ['a', 'b'] });
    const noop = await items.updateOne({ _id: 2 }, { $set: { qty: 5 } });
    expect(noop).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
  });

  it('deletes one or many documents', async () => {
    const logs = db.collection('logs');
    await logs.insertMany([{ level: 'info' }, { level: 'info' }, { level: 'error' }]);
    expect((await logs.deleteOne({ level: 'info' })).deletedCount).toBe(1);
    expect((await logs.deleteMany({})).deletedCount).toBe(2);
    expect(await logs.countDocuments()).toBe(0);
  });

  it('findOneAndUpdate returns the document before or after, as asked', async () => {
    const counters = db.collection<{ _id: string; value: number }>('counters');
    await counters.insertOne({ _id: 'seq', value: 1 });
    const before = await counters.findOneAndUpdate({ _id: 'seq' }, { $inc: { value: 1 } }, { returnDocument: 'before' });
    const after = await counters.findOneAndUpdate({ _id: 'seq' }, { $inc: { value: 1 } }, { returnDocument: 'after' });
    expect(before).toEqual({ _id: 'seq', value: 1 });
    expect(after).toEqual({ _id: 'seq', value: 3 });
  });

  it('applies unacknowledged (w: 0) writes without replying to them', async () => {
    // One connection, so the write (sent with moreToCome) and the read that follows keep their order.
    const single = await MongoClient.connect(target.uri, { maxPoolSize: 1 });
    try {
      const notes = single.db(db.databaseName).collection('notes');
      await notes.insertOne({ text: 'fire and forget' }, { writeConcern: { w: 0 } });
      expect(await notes.findOne({ text: 'fire and forget' }, { projection: { _id: 0 } })).toEqual({ text: 'fire and forget' });
      expect(await notes.countDocuments()).toBe(1);
    } finally {
      await single.close();
    }
  });

  it('rejects a duplicate on a unique index with E11000, keyPattern and keyValue', async () => {
    const accounts = db.collection('accounts');
    await accounts.createIndex({ email: 1 }, { unique: true });
    await accounts.insertOne({ email: 'a@example.com' });
    const error = await accounts.insertOne({ email: 'a@example.com' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 11000, keyPattern: { email: 1 }, keyValue: { email: 'a@example.com' } });
    expect(String((error as Error).message)).toMatch(/E11000 duplicate key error collection: .*accounts index: email_1 dup key/);
    expect(await accounts.countDocuments()).toBe(1);
  });
});

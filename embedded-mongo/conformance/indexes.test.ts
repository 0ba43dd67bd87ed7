// Indexes: unique (compound, sparse, partial) E11000 on every write path, index DDL, batch write errors.
import { type Db, MongoBulkWriteError, MongoServerError } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LooseDocument, openTestTarget, type TestTarget } from './test-target.js';

async function failure(promise: Promise<unknown>): Promise<MongoServerError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof MongoServerError)) throw new Error(`expected a MongoServerError, got ${String(error)}`);
  return error;
}

describe('embedded mongo: indexes and write errors through the official driver', () => {
  let target: TestTarget;
  let db: Db;

  beforeAll(async () => {
    target = await openTestTarget();
    db = target.client.db(target.uniqueDbName('indexes'));
  });
  afterAll(() => target.close());

  // Loose on purpose: these tests use numeric and string _ids, which the driver's Document typing forbids.
  const collection = (name: string) => db.collection<LooseDocument>(name);

  it('enforces a compound unique index and reports its keyPattern and keyValue', async () => {
    const pages = collection('pages');
    await pages.createIndex({ site: 1, slug: 1 }, { unique: true });
    await pages.insertMany([
      { site: 'a', slug: 'home' },
      { site: 'b', slug: 'home' },
    ]);
    const error = await failure(pages.insertOne({ site: 'a', slug: 'home' }));
    expect(error.code).toBe(11000);
    expect(error.keyPattern).toEqual({ site: 1, slug: 1 });
    expect(error.keyValue).toEqual({ site: 'a', slug: 'home' });
    expect(error.message).toContain('index: site_1_slug_1 dup key: { site: "a", slug: "home" }');
  });

  it('treats a missing field as null in a unique index unless the index is sparse', async () => {
    const plain = collection('plain_unique');
    await plain.createIndex({ handle: 1 }, { unique: true });
    await plain.insertOne({ name: 'no handle' });
    expect((await failure(plain.insertOne({ name: 'also none' }))).keyValue).toEqual({ handle: null });

    const sparse = collection('sparse_unique');
    await sparse.createIndex({ handle: 1 }, { unique: true, sparse: true });
    await sparse.insertMany([{ name: 'none 1' }, { name: 'none 2' }, { handle: 'h' }]);
    expect((await failure(sparse.insertOne({ handle: 'h' }))).code).toBe(11000);
  });

  it('only constrains documents matching a partialFilterExpression', async () => {
    const members = collection('members');
    await members.createIndex({ email: 1 }, { unique: true, partialFilterExpression: { active: true } });
    await members.insertMany([
      { email: 'x@y', active: false },
      { email: 'x@y', active: false },
      { email: 'x@y', active: true },
    ]);
    expect((await failure(members.insertOne({ email: 'x@y', active: true }))).code).toBe(11000);
    // Leaving the filter frees the key again.
    await members.updateOne({ active: true }, { $set: { active: false } });
    await members.insertOne({ email: 'x@y', active: true });
    expect(await members.countDocuments({ active: true })).toBe(1);
  });

  it('checks each element of an array field in a unique index', async () => {
    const tagged = collection('tagged');
    await tagged.createIndex({ codes: 1 }, { unique: true });
    await tagged.insertOne({ codes: ['a', 'b', 'b'] });
    expect((await failure(tagged.insertOne({ codes: ['c', 'b'] }))).keyValue).toEqual({ codes: 'b' });
  });

  it('raises E11000 from update, upsert and findOneAndUpdate, leaving the document unchanged', async () => {
    const users = collection('users');
    await users.createIndex({ email: 1 }, { unique: true });
    await users.insertMany([
      { _id: 1, email: 'a' },
      { _id: 2, email: 'b' },
    ]);
    expect((await failure(users.updateOne({ _id: 2 }, { $set: { email: 'a' } }))).code).toBe(11000);
    expect((await failure(users.updateOne({ _id: 3 }, { $set: { email: 'b' } }, { upsert: true }))).code).toBe(11000);
    const fam = await failure(users.findOneAndUpdate({ _id: 2 }, { $set: { email: 'a' } }));
    expect(fam.code).toBe(11000);
    expect(fam.keyValue).toEqual({ email: 'a' });
    expect(await users.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, email: 'a' },
      { _id: 2, email: 'b' },
    ]);
  });

  it('raises E11000 on a duplicate _id', async () => {
    const docs = collection('ids');
    await docs.insertOne({ _id: 'k' });
    const error = await failure(docs.insertOne({ _id: 'k' }));
    expect(error.code).toBe(11000);
    expect(error.keyPattern).toEqual({ _id: 1 });
  });

  it('stops an ordered insertMany at the first duplicate and continues an unordered one', async () => {
    const docs = collection('batches');
    await docs.createIndex({ n: 1 }, { unique: true });
    const ordered = await failure(docs.insertMany([{ n: 1 }, { n: 1 }, { n: 2 }]));
    expect(ordered).toBeInstanceOf(MongoBulkWriteError);
    expect((ordered as MongoBulkWriteError).insertedCount).toBe(1);
    expect(await docs.countDocuments()).toBe(1);

    const unordered = (await failure(docs.insertMany([{ n: 3 }, { n: 1 }, { n: 4 }, { n: 3 }], { ordered: false }))) as MongoBulkWriteError;
    expect(unordered.insertedCount).toBe(2);
    const writeErrors = [unordered.writeErrors].flat();
    expect(writeErrors.map((writeError) => [writeError.index, writeError.code])).toEqual([
      [1, 11000],
      [3, 11000],
    ]);
    expect(await docs.countDocuments()).toBe(3);
  });

  it('runs a mixed bulkWrite', async () => {
    const docs = collection('bulk');
    const result = await docs.bulkWrite([
      { insertOne: { document: { _id: 1, v: 1 } } },
      { insertOne: { document: { _id: 2, v: 2 } } },
      { updateOne: { filter: { _id: 1 }, update: { $inc: { v: 10 } } } },
      { updateOne: { filter: { _id: 3 }, update: { $set: { v: 3 } }, upsert: true } },
      { replaceOne: { filter: { _id: 2 }, replacement: { v: 20 } } },
      { deleteOne: { filter: { _id: 3 } } },
    ]);
    expect(result).toMatchObject({ insertedCount: 2, matchedCount: 2, modifiedCount: 2, upsertedCount: 1, deletedCount: 1 });
    expect(await docs.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, v: 11 },
      { _id: 2, v: 20 },
    ]);
  });

  it('refuses to build a unique index over existing duplicates', async () => {
    const docs = collection('dupes');
    await docs.insertMany([{ k: 1 }, { k: 1 }]);
    expect((await failure(docs.createIndex({ k: 1 }, { unique: true }))).code).toBe(11000);
    expect((await docs.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_']);
  });

  it('lists, re-creates idempotently and drops indexes with their options', async () => {
    const docs = collection('ddl');
    await docs.createIndex({ a: 1, b: -1 }, { unique: true, sparse: true });
    await docs.createIndex({ createdAt: 1 }, { expireAfterSeconds: 3600 });
    expect(await docs.createIndex({ a: 1, b: -1 }, { unique: true, sparse: true })).toBe('a_1_b_-1');
    const indexes = await docs.listIndexes().toArray();
    expect(indexes.map(({ name, key, unique, sparse, expireAfterSeconds }) => ({ name, key, unique, sparse, expireAfterSeconds }))).toEqual(
      [
        { name: '_id_', key: { _id: 1 }, unique: undefined, sparse: undefined, expireAfterSeconds: undefined },
        { name: 'a_1_b_-1', key: { a: 1, b: -1 }, unique: true, sparse: true, expireAfterSeconds: undefined },
        { name: 'createdAt_1', key: { createdAt: 1 }, unique: undefined, sparse: undefined, expireAfterSeconds: 3600 },
      ],
    );
    await docs.dropIndex('a_1_b_-1');
    expect((await docs.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_', 'createdAt_1']);
    await docs.dropIndexes();
    expect((await docs.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_']);
  });

  it('rejects an index whose name exists with another key (86) or whose key exists with other options (85)', async () => {
    const docs = collection('conflicts');
    await docs.createIndex({ a: 1 }, { name: 'my_index' });
    expect((await failure(docs.createIndex({ b: 1 }, { name: 'my_index' }))).code).toBe(86);
    expect((await failure(docs.createIndex({ a: 1 }, { name: 'my_index', unique: true }))).code).toBe(85);
  });

  it('answers listIndexes and dropIndex on a missing collection with NamespaceNotFound (26)', async () => {
    expect((await failure(collection('missing').listIndexes().toArray())).code).toBe(26);
    await collection('exists').insertOne({});
    expect((await failure(collection('exists').dropIndex('nope_1'))).code).toBe(27);
  });
});

// Reads answer what MongoDB's do (issue 20): projections ($slice, $elemMatch, inclusion vs exclusion), $all on a
// single value, $type by alias, code and array of types, $eq with $type, BinData order and subtype, DBRef fields
// in $elemMatch, hint() order, and collMod of an index's `hidden` (what mongoose's hideIndexes sends).
import { Binary, type Db, DBRef, ObjectId } from 'mongodb';
import mongoose, { type Connection, Schema } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LooseDocument, openTestTarget, type TestTarget } from './test-target.js';

async function failureCode(action: () => Promise<unknown>): Promise<number | undefined> {
  try {
    await action();
    return undefined;
  } catch (error) {
    return (error as { code?: number }).code;
  }
}

const projected = { _id: 1, a: 3, b: 'x', arr: [1, 2, 3, 4], ids: [5, 6, 7], sub: { list: [1, 2, 3] } };
const oid = new ObjectId('64b7f0000000000000000001');
const typed = [
  { _id: 1, v: oid },
  { _id: 2, v: new Binary(Buffer.from([1, 2]), 0) },
  { _id: 3, v: 'str' },
  { _id: 4, v: 1.5 },
  { _id: 5, v: 7 },
  { _id: 6, v: ['x', 1] },
  { _id: 7, v: null },
  { _id: 8, v: new Date('2026-01-01T00:00:00Z') },
];
const binaries = [
  { _id: 1, b: new Binary(Buffer.from([1, 2]), 0) },
  { _id: 2, b: new Binary(Buffer.from([1, 2]), 128) },
  { _id: 3, b: new Binary(Buffer.from([1, 2, 3]), 0) },
];
const [person1, pet, person2] = ['64b7f0000000000000000011', '64b7f0000000000000000012', '64b7f0000000000000000013'].map(
  (hex) => new ObjectId(hex),
) as [ObjectId, ObjectId, ObjectId];

describe('embedded mongo: read rules through the official driver', () => {
  let target: TestTarget;
  let db: Db;

  beforeAll(async () => {
    target = await openTestTarget();
    db = target.client.db(target.uniqueDbName('read_rules'));
  });
  afterAll(() => target.close());

  const collection = (name: string) => db.collection<LooseDocument>(name);
  const ids = async (cursor: { toArray(): Promise<LooseDocument[]> }) => (await cursor.toArray()).map((document) => document._id);

  it('projects $slice: alone or with exclusions it keeps every other field; with inclusions only those', async () => {
    const docs = collection('slice');
    await docs.insertOne(projected);
    const find = (projection: LooseDocument) => docs.findOne({ _id: 1 }, { projection });
    expect(await find({ arr: { $slice: 2 } })).toEqual({ ...projected, arr: [1, 2] });
    expect(await find({ arr: { $slice: -1 }, b: 0 })).toEqual({ _id: 1, a: 3, arr: [4], ids: [5, 6, 7], sub: { list: [1, 2, 3] } });
    expect(await find({ arr: { $slice: [1, 2] }, a: 1 })).toEqual({ _id: 1, a: 3, arr: [2, 3] });
    expect(await find({ 'sub.list': { $slice: 1 } })).toEqual({ ...projected, sub: { list: [1] } });
  });

  it('projects $elemMatch with bare operators on an array of scalars, as an inclusion', async () => {
    const docs = collection('elem_match');
    await docs.insertOne(projected);
    const find = (projection: LooseDocument) => docs.findOne({ _id: 1 }, { projection });
    expect(await find({ ids: { $elemMatch: { $in: [6, 7] } } })).toEqual({ _id: 1, ids: [6] });
    expect(await find({ ids: { $elemMatch: { $gt: 5 } }, a: 1 })).toEqual({ _id: 1, a: 3, ids: [6] });
    expect(await find({ ids: { $elemMatch: { $gt: 100 } } })).toEqual({ _id: 1 });
  });

  it('mixes inclusion and exclusion only for _id (31254, 31253)', async () => {
    const docs = collection('mixed_projection');
    await docs.insertOne(projected);
    expect(await failureCode(() => docs.findOne({ _id: 1 }, { projection: { a: 1, b: 0 } }))).toBe(31254);
    expect(await failureCode(() => docs.findOne({ _id: 1 }, { projection: { a: 0, b: 1 } }))).toBe(31253);
    expect(await docs.findOne({ _id: 1 }, { projection: { _id: 0, a: 1 } })).toEqual({ a: 3 });
    expect(await docs.findOne({ _id: 1 }, { projection: { _id: 1, a: 0, arr: 0, ids: 0, sub: 0 } })).toEqual({ _id: 1, b: 'x' });
  });

  it('returns projected top-level fields in the stored document order, whatever order the projection names them in', async () => {
    const docs = collection('projection_order');
    await docs.insertOne(projected);
    const keys = async (projection: LooseDocument) => Object.keys((await docs.findOne({ _id: 1 }, { projection })) ?? {});
    expect(await keys({ sub: 1, b: 1, a: 1 })).toEqual(['_id', 'a', 'b', 'sub']);
    expect(await keys({ b: true, _id: 0, a: 2 })).toEqual(['a', 'b']);
    expect(await keys({ arr: 0, a: false })).toEqual(['_id', 'b', 'ids', 'sub']);
    expect(await keys({ _id: 1 })).toEqual(['_id']);
    expect(await keys({ _id: 0 })).toEqual(['a', 'b', 'arr', 'ids', 'sub']);
    expect(await keys({ missing: 1 })).toEqual(['_id']);
    // The same through a filter, a sort, skip and limit, and through findOneAndUpdate's projection.
    await docs.insertMany([
      { _id: 2, z: 1, y: 2, x: 3 },
      { _id: 3, z: 4, y: 5, x: 6 },
    ]);
    const page = await docs.find({ z: { $gte: 1 } }, { projection: { x: 1, z: 1 }, sort: { z: -1 }, skip: 0, limit: 1 }).toArray();
    expect(page).toEqual([{ _id: 3, z: 4, x: 6 }]);
    expect(Object.keys(page[0] ?? {})).toEqual(['_id', 'z', 'x']);
    const updated = await docs.findOneAndUpdate(
      { _id: 2 },
      { $set: { w: 0 } },
      { projection: { w: 1, y: 1, _id: 0 }, returnDocument: 'after' },
    );
    expect(updated).toEqual({ y: 2, w: 0 });
    expect(Object.keys(updated ?? {})).toEqual(['y', 'w']);
  });

  it('matches $all against a field holding a single value', async () => {
    const docs = collection('all_single');
    await docs.insertMany([
      { _id: 1, tag: 'a' },
      { _id: 2, tag: ['a', 'b'] },
      { _id: 3, tag: 'c' },
    ]);
    expect(await ids(docs.find({ tag: { $all: ['a'] } }).sort({ _id: 1 }))).toEqual([1, 2]);
    expect(await ids(docs.find({ tag: { $all: ['a', 'b'] } }))).toEqual([2]);
    expect(await ids(docs.find({ tag: { $all: [] } }))).toEqual([]);
  });

  it('matches $type by alias, by number, by an array of types, and with $eq', async () => {
    const docs = collection('types');
    await docs.insertMany(typed);
    const byType = (type: unknown) => ids(docs.find({ v: { $type: type } } as LooseDocument).sort({ _id: 1 }));
    expect(await byType('objectId')).toEqual([1]);
    expect(await byType(7)).toEqual([1]);
    expect(await byType('binData')).toEqual([2]);
    expect(await byType(5)).toEqual([2]);
    expect(await byType(['string', 'objectId'])).toEqual([1, 3, 6]);
    expect(await byType('number')).toEqual([4, 5, 6]);
    expect(await byType('double')).toEqual([4]);
    expect(await byType('int')).toEqual([5, 6]);
    expect(await byType('array')).toEqual([6]);
    expect(await byType('null')).toEqual([7]);
    expect(await byType(9)).toEqual([8]);
    expect(await ids(docs.find({ v: { $eq: 7, $type: 'int' } }))).toEqual([5]);
    expect(await ids(docs.find({ v: { $eq: 7, $type: 'double' } }))).toEqual([]);
  });

  it('compares BinData by length, then subtype, then bytes, and matches the subtype on equality', async () => {
    const docs = collection('binaries');
    await docs.insertMany(binaries);
    const find = (filter: LooseDocument) => ids(docs.find(filter).sort({ _id: 1 }));
    expect(await find({ b: new Binary(Buffer.from([1, 2]), 0) })).toEqual([1]);
    expect(await find({ b: new Binary(Buffer.from([1, 2]), 128) })).toEqual([2]);
    expect(await find({ b: { $in: [new Binary(Buffer.from([1, 2, 3]), 0)] } })).toEqual([3]);
    expect(await find({ b: { $ne: new Binary(Buffer.from([1, 2]), 0) } })).toEqual([2, 3]);
    expect(await find({ b: { $gt: new Binary(Buffer.from([1, 2]), 0) } })).toEqual([2, 3]);
    expect(await find({ b: { $lt: new Binary(Buffer.from([1, 2, 3]), 0) } })).toEqual([1, 2]);
  });

  it('matches DBRef fields ($ref, $id) inside $elemMatch', async () => {
    const docs = collection('dbrefs');
    await docs.insertMany([
      { _id: 1, refs: [new DBRef('people', person1), new DBRef('pets', pet)] },
      { _id: 2, refs: [new DBRef('people', person2)] },
    ]);
    expect(await ids(docs.find({ refs: { $elemMatch: { $id: person1 } } }))).toEqual([1]);
    expect(await ids(docs.find({ refs: { $elemMatch: { $ref: 'people', $id: person2 } } }))).toEqual([2]);
    expect(await ids(docs.find({ refs: { $elemMatch: { $ref: 'pets', $id: person2 } } }))).toEqual([]);
  });

  it("returns documents in the hinted index's order, and refuses a hint naming no index (2)", async () => {
    const docs = collection('hints');
    await docs.insertMany([
      { _id: 1, a: 3 },
      { _id: 2, a: 1 },
      { _id: 3, a: 2 },
    ]);
    await docs.createIndex({ a: 1 });
    await docs.createIndex({ a: -1 });
    expect(await ids(docs.find({}).hint({ a: 1 }))).toEqual([2, 3, 1]);
    expect(await ids(docs.find({}).hint('a_1'))).toEqual([2, 3, 1]);
    expect(await ids(docs.find({}).hint({ a: -1 }))).toEqual([1, 3, 2]);
    expect(await ids(docs.find({}).hint({ a: 1 }).sort({ _id: -1 }))).toEqual([3, 2, 1]);
    expect(await failureCode(() => docs.find({}).hint({ missing: 1 }).toArray())).toBe(2);
    expect(await failureCode(() => docs.countDocuments({}, { hint: 'missing_1' }))).toBe(2);
    expect(await failureCode(() => docs.aggregate([{ $match: {} }], { hint: { missing: 1 } }).toArray())).toBe(2);
    expect(await failureCode(() => db.command({ distinct: 'hints', key: 'a', query: {}, hint: { missing: 1 } }))).toBe(2);
    expect(await docs.countDocuments({ a: { $gte: 2 } }, { hint: { a: 1 } })).toBe(2);
  });

  it('hides and unhides an index with collMod; an unknown index is IndexNotFound (27)', async () => {
    const docs = collection('coll_mod');
    await docs.insertOne({ _id: 1, a: 1 });
    await docs.createIndex({ a: 1 });
    expect(await db.command({ collMod: 'coll_mod', index: { keyPattern: { a: 1 }, hidden: true } })).toMatchObject({ ok: 1 });
    expect((await docs.listIndexes().toArray()).find((index) => index.name === 'a_1')).toMatchObject({ hidden: true });
    expect(await failureCode(() => docs.find({}).hint('a_1').toArray())).toBe(2);
    await db.command({ collMod: 'coll_mod', index: { name: 'a_1', hidden: false } });
    expect((await docs.listIndexes().toArray()).find((index) => index.name === 'a_1')?.hidden ?? false).toBe(false);
    expect(await failureCode(() => db.command({ collMod: 'coll_mod', index: { name: 'nope_1', hidden: true } }))).toBe(27);
  });
});

const recordSchema = new Schema({ a: Number, tag: Schema.Types.Mixed, v: Schema.Types.Mixed, arr: [Number], ids: [Number] });
recordSchema.index({ a: 1 });

describe('embedded mongo: read rules through mongoose', () => {
  let target: TestTarget;
  let connection: Connection;
  let Record: mongoose.Model<mongoose.InferSchemaType<typeof recordSchema>>;

  beforeAll(async () => {
    target = await openTestTarget();
    connection = await mongoose.createConnection(target.uri, { dbName: target.uniqueDbName('read_rules_mongoose') }).asPromise();
    Record = connection.model('Record', recordSchema);
    await Record.init();
    await Record.create([
      { a: 3, tag: 'a', v: oid, arr: [1, 2, 3], ids: [5, 6, 7] },
      { a: 1, tag: ['a', 'b'], v: new Binary(Buffer.from([1, 2]), 128), arr: [], ids: [] },
      { a: 2, tag: 'c', v: 'str' },
    ]);
  });
  afterAll(async () => {
    await connection?.close();
    await target.close();
  });

  it('projects $slice keeping the other fields and $elemMatch on scalars', async () => {
    const sliced = await Record.findOne({ a: 3 }, { arr: { $slice: 1 } }).lean();
    expect(sliced).toMatchObject({ a: 3, tag: 'a', arr: [1], ids: [5, 6, 7] });
    const matched = await Record.findOne({ a: 3 }, { ids: { $elemMatch: { $in: [6, 7] } } }).lean();
    expect(matched && Object.keys(matched).sort()).toEqual(['_id', 'ids']);
    expect(matched?.ids).toEqual([6]);
  });

  it('matches $all on a single value, $type by alias and BinData by subtype', async () => {
    const byA = (records: Array<{ a?: number | null }>) => records.map((record) => record.a).sort();
    expect(byA(await Record.find({ tag: { $all: ['a'] } }).lean())).toEqual([1, 3]);
    expect(byA(await Record.find({ v: { $type: 'objectId' } }).lean())).toEqual([3]);
    expect(byA(await Record.find({ v: { $type: ['binData', 'string'] } }).lean())).toEqual([1, 2]);
    expect(byA(await Record.find({ v: new Binary(Buffer.from([1, 2]), 128) }).lean())).toEqual([1]);
    expect(byA(await Record.find({ v: new Binary(Buffer.from([1, 2]), 0) }).lean())).toEqual([]);
  });

  it("follows hint()'s index order", async () => {
    const records = await Record.find({}).hint({ a: 1 }).lean();
    expect(records.map((record) => record.a)).toEqual([1, 2, 3]);
  });

  it('hides an index the schema no longer declares with syncIndexes({ hideIndexes: true })', async () => {
    await Record.collection.createIndex({ tag: 1 });
    await Record.syncIndexes({ hideIndexes: true });
    const indexes = await Record.listIndexes();
    expect(indexes.find((index) => index.name === 'tag_1')).toMatchObject({ hidden: true });
    expect(indexes.find((index) => index.name === 'a_1')?.hidden ?? false).toBe(false);
  });
});

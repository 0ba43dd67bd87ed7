// Writes fail and succeed exactly where MongoDB's do (issue 20): unchanged _id, positional paths and conflicts,
// refused writes with MongoDB's codes, $pull conditions and nested arrays, $setOnInsert with positional paths.
import type { Db, Document, UpdateFilter } from 'mongodb';
import mongoose, { type Connection, Schema } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LooseDocument, openTestTarget, type TestTarget } from './test-target.js';

/** The code of the error `action` fails with (undefined if it succeeds): driver write errors and command errors alike. */
async function failureCode(action: () => Promise<unknown>): Promise<number | undefined> {
  try {
    await action();
    return undefined;
  } catch (error) {
    return (error as { code?: number }).code;
  }
}

/** An update the driver's typing cannot express (operators on fields it types as non-arrays). */
const loose = (update: Document): UpdateFilter<LooseDocument> => update;

const NINE_MB = 'x'.repeat(9 * 1024 * 1024);
/** Over 16 MB but under the driver's own 17 MB message limit, so the server is the one to refuse it. */
const OVER_16_MB = 'x'.repeat(16 * 1024 * 1024 + 100_000);
/** mongod answers BSONObjectTooLarge (10334) for an update that outgrows 16 MB; older servers 17419. */
const TOO_LARGE_AFTER_UPDATE = [10334, 17419];
/** mongod refuses an oversized insert with BSONObjectTooLarge (10334); older servers with BadValue (2). */
const TOO_LARGE_INSERT = [2, 10334];

describe('embedded mongo: write rules through the official driver', () => {
  let target: TestTarget;
  let db: Db;

  beforeAll(async () => {
    target = await openTestTarget();
    db = target.client.db(target.uniqueDbName('write_rules'));
  });
  afterAll(() => target.close());

  const collection = (name: string) => db.collection<LooseDocument>(name);

  it('allows $set of _id to its current value (update, upsert, findOneAndUpdate) and refuses another value (66)', async () => {
    const docs = collection('same_id');
    await docs.insertOne({ _id: 1, a: 1 });
    expect(await docs.updateOne({ _id: 1 }, { $set: { _id: 1, a: 2 } })).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    const upserted = await docs.updateOne({ _id: 2 }, { $set: { _id: 2, a: 1 } }, { upsert: true });
    expect(upserted.upsertedId).toBe(2);
    expect(await docs.findOneAndUpdate({ _id: 1 }, { $set: { _id: 1, b: 1 } }, { returnDocument: 'after' })).toEqual({
      _id: 1,
      a: 2,
      b: 1,
    });
    expect(await failureCode(() => docs.updateOne({ _id: 1 }, { $set: { _id: 3 } }))).toBe(66);
    expect(await failureCode(() => docs.replaceOne({ _id: 1 }, { _id: 4, c: 1 }))).toBe(66);
    expect(await docs.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, a: 2, b: 1 },
      { _id: 2, a: 1 },
    ]);
  });

  it('applies several positional paths under one array in one update, and refuses overlapping paths (40)', async () => {
    const docs = collection('positional_paths');
    await docs.insertOne({ _id: 1, a: [{ k: 1 }, { k: 2 }] });
    await docs.updateOne({ _id: 1, 'a.k': 2 }, { $set: { 'a.$.x': 1, 'a.$.y': 2 } });
    await docs.updateOne({ _id: 1 }, { $set: { 'a.$[].b': 1, 'a.$[].c': 2 } });
    await docs.updateOne({ _id: 1 }, { $set: { 'a.$[e].d': 3 }, $inc: { 'a.$[e].n': 1 } }, { arrayFilters: [{ 'e.k': 1 }] });
    expect((await docs.findOne({ _id: 1 }))?.a).toEqual([
      { k: 1, b: 1, c: 2, d: 3, n: 1 },
      { k: 2, x: 1, y: 2, b: 1, c: 2 },
    ]);

    await docs.insertOne({ _id: 2, a: [{ k: 1 }], o: { p: 1 } });
    expect(await failureCode(() => docs.updateOne({ _id: 2 }, { $set: { 'o.p': 2 }, $inc: { 'o.p': 1 } }))).toBe(40);
    expect(await failureCode(() => docs.updateOne({ _id: 2 }, { $set: { o: {} }, $unset: { 'o.p': '' } }))).toBe(40);
    expect(await failureCode(() => docs.updateOne({ _id: 2, 'a.k': 1 }, { $set: { 'a.$.x': 1 }, $unset: { 'a.$.x': '' } }))).toBe(40);
    expect(await failureCode(() => docs.updateOne({ _id: 2 }, { $set: { 'a.$[].x': 1, 'a.$[]': {} } }))).toBe(40);
    // An identifier without an array filter is BadValue (2); an array filter no path uses is FailedToParse (9).
    expect(await failureCode(() => docs.updateOne({ _id: 2 }, { $set: { 'a.$[e].x': 1 } }))).toBe(2);
    expect(await failureCode(() => docs.updateOne({ _id: 2 }, { $set: { n: 1 } }, { arrayFilters: [{ 'e.k': 1 }] }))).toBe(9);
    expect(await docs.findOne({ _id: 2 })).toEqual({ _id: 2, a: [{ k: 1 }], o: { p: 1 } });
  });

  it('refuses $push, $addToSet, $pull and $pullAll on a non-array field (BadValue, 2) and changes nothing', async () => {
    const docs = collection('non_arrays');
    await docs.insertOne({ _id: 1, label: 'x', n: 1 });
    expect(await failureCode(() => docs.updateOne({ _id: 1 }, loose({ $push: { label: 'y' } })))).toBe(2);
    expect(await failureCode(() => docs.updateOne({ _id: 1 }, { $addToSet: { label: 'y' } }))).toBe(2);
    expect(await failureCode(() => docs.updateOne({ _id: 1 }, loose({ $pull: { label: 'x' } })))).toBe(2);
    expect(await failureCode(() => docs.updateOne({ _id: 1 }, loose({ $pullAll: { label: ['x'] } })))).toBe(2);
    expect(await failureCode(() => docs.updateOne({ _id: 1 }, loose({ $set: { n: 2 }, $push: { label: 'y' } })))).toBe(2);
    expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, label: 'x', n: 1 });
  });

  it('refuses to create a field inside an array without a position or inside a scalar (PathNotViable, 28)', async () => {
    const docs = collection('not_viable');
    await docs.insertOne({ _id: 1, items: [{ k: 1 }, { k: 2 }], n: 5 });
    expect(await failureCode(() => docs.updateOne({ _id: 1 }, { $set: { 'items.v': 1 } }))).toBe(28);
    expect(await failureCode(() => docs.updateOne({ _id: 1 }, { $inc: { 'items.v': 1 } }))).toBe(28);
    expect(await failureCode(() => docs.updateOne({ _id: 1 }, { $set: { 'n.m': 1 } }))).toBe(28);
    await docs.updateOne({ _id: 1 }, { $set: { 'items.1.v': 1 } });
    expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, items: [{ k: 1 }, { k: 2, v: 1 }], n: 5 });
  });

  it('refuses $inc of a non-number (TypeMismatch, 14)', async () => {
    const docs = collection('inc_non_number');
    await docs.insertOne({ _id: 1, label: 'x', items: [{ n: 'one' }] });
    expect(await failureCode(() => docs.updateOne({ _id: 1 }, { $inc: { label: 1 } }))).toBe(14);
    expect(await failureCode(() => docs.updateOne({ _id: 1 }, { $inc: { 'items.$[].n': 1 } }))).toBe(14);
    expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, label: 'x', items: [{ n: 'one' }] });
  });

  it('refuses an insert over 16 MB and an update whose result outgrows 16 MB, storing neither', async () => {
    const docs = collection('too_large');
    expect(TOO_LARGE_INSERT).toContain(await failureCode(() => docs.insertOne({ _id: 2, s: OVER_16_MB })));
    expect(await docs.countDocuments({ _id: 2 })).toBe(0);
    await docs.insertOne({ _id: 1, s: NINE_MB });
    expect(TOO_LARGE_AFTER_UPDATE).toContain(await failureCode(() => docs.updateOne({ _id: 1 }, { $set: { t: NINE_MB } })));
    expect(TOO_LARGE_AFTER_UPDATE).toContain(
      await failureCode(() => docs.updateOne({ _id: 1 }, [{ $set: { t: { $concat: ['$s', '$s'] } } }])),
    );
    const stored = await docs.findOne({ _id: 1 }, { projection: { s: 0 } });
    expect(stored).toEqual({ _id: 1 });
  });

  it('refuses create with capped but no size (InvalidOptions, 72)', async () => {
    expect(await failureCode(() => db.createCollection('capped_without_size', { capped: true }))).toBe(72);
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((entry) => entry.name);
    expect(names).not.toContain('capped_without_size');
  });

  it('pulls with $or, $and and $elemMatch conditions, and by whole-value equality', async () => {
    const docs = collection('pull_conditions');
    await docs.insertOne({
      _id: 1,
      items: [
        { k: 1, v: 1 },
        { k: 2, v: 2 },
        { k: 3, v: 3 },
      ],
      matrix: [[1, 2], [6, 7], [3], 2],
      results: [{ answers: [{ q: 1, a: 9 }] }, { answers: [{ q: 1, a: 2 }] }],
    });
    await docs.updateOne({ _id: 1 }, loose({ $pull: { items: { $or: [{ k: 1 }, { v: { $gte: 3 } }] } } }));
    await docs.updateOne(
      { _id: 1 },
      loose({ $pull: { matrix: { $elemMatch: { $gt: 5 } }, results: { answers: { $elemMatch: { q: 1, a: { $gte: 8 } } } } } }),
    );
    expect(await docs.findOne({ _id: 1 })).toEqual({
      _id: 1,
      items: [{ k: 2, v: 2 }],
      matrix: [[1, 2], [3], 2],
      results: [{ answers: [{ q: 1, a: 2 }] }],
    });
    await docs.updateOne({ _id: 1 }, loose({ $pull: { items: { $and: [{ k: 2 }, { v: 2 }] }, matrix: 2 } }));
    await docs.updateOne({ _id: 1 }, loose({ $pull: { matrix: [1, 2] } }));
    expect(await docs.findOne({ _id: 1 })).toMatchObject({ items: [], matrix: [[3]] });
  });

  it('pulls and pulls all from nested arrays through positional paths', async () => {
    const docs = collection('pull_nested');
    await docs.insertOne({
      _id: 1,
      groups: [
        { k: 1, tags: ['x', 'y', 'z'] },
        { k: 2, tags: ['x', 'z'] },
      ],
      grid: [
        [1, 2],
        [2, 3],
      ],
      deep: { list: [1, 2, 3] },
    });
    await docs.updateOne({ _id: 1 }, loose({ $pull: { 'groups.$[].tags': 'x', 'grid.$[]': 2, 'deep.list': { $gte: 3 } } }));
    await docs.updateOne({ _id: 1, 'groups.k': 2 }, loose({ $pullAll: { 'groups.$.tags': ['z'] } }));
    await docs.updateOne({ _id: 1 }, loose({ $pullAll: { 'groups.$[g].tags': ['y'] } }), { arrayFilters: [{ 'g.k': 1 }] });
    expect(await docs.findOne({ _id: 1 })).toEqual({
      _id: 1,
      groups: [
        { k: 1, tags: ['z'] },
        { k: 2, tags: [] },
      ],
      grid: [[1], [3]],
      deep: { list: [1, 2] },
    });
  });

  it('parses $setOnInsert positional paths: ignored on a match, applied or refused (2) on insert', async () => {
    const docs = collection('set_on_insert_positional');
    await docs.insertOne({ _id: 1, items: [{ k: 1 }, { k: 2 }] });
    await docs.updateOne({ _id: 1, 'items.k': 2 }, { $set: { 'items.$.v': 'x' }, $setOnInsert: { 'items.$.w': 1 } }, { upsert: true });
    await docs.updateOne({ _id: 1 }, { $set: { n: 1 }, $setOnInsert: { 'items.$[].w': 1 } }, { upsert: true });
    expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, items: [{ k: 1 }, { k: 2, v: 'x' }], n: 1 });

    await docs.updateOne({ _id: 2, items: [{ k: 1 }] }, { $setOnInsert: { 'items.$[].w': 1 } }, { upsert: true });
    expect(await docs.findOne({ _id: 2 })).toEqual({ _id: 2, items: [{ k: 1, w: 1 }] });
    expect(await failureCode(() => docs.updateOne({ _id: 3, 'items.k': 2 }, { $setOnInsert: { 'items.$.w': 1 } }, { upsert: true }))).toBe(
      2,
    );
    expect(await failureCode(() => docs.updateOne({ _id: 4 }, { $setOnInsert: { 'items.$[].w': 1 } }, { upsert: true }))).toBe(2);
    expect(await docs.countDocuments({ _id: { $in: [3, 4] } })).toBe(0);
  });
});

const itemSchema = new Schema({
  name: String,
  extra: Schema.Types.Mixed,
  n: Number,
  items: [new Schema({ k: Number, x: Number, y: Number, w: Number, tags: [String] }, { _id: false })],
});

describe('embedded mongo: write rules through mongoose', () => {
  let target: TestTarget;
  let connection: Connection;
  let Item: mongoose.Model<mongoose.InferSchemaType<typeof itemSchema>>;

  beforeAll(async () => {
    target = await openTestTarget();
    connection = await mongoose.createConnection(target.uri, { dbName: target.uniqueDbName('write_rules_mongoose') }).asPromise();
    Item = connection.model('Item', itemSchema);
    await Item.init();
  });
  afterAll(async () => {
    await connection?.close();
    await target.close();
  });

  it('sends _id unchanged on update, upsert and replacement; a changed _id is 66', async () => {
    const item = await Item.create({ name: 'a' });
    await Item.updateOne({ _id: item._id }, { _id: item._id, name: 'b' });
    const id = new mongoose.Types.ObjectId();
    const upserted = await Item.findOneAndUpdate({ _id: id }, { _id: id, name: 'u' }, { upsert: true, new: true });
    expect(upserted?.name).toBe('u');
    await Item.replaceOne({ _id: item._id }, { _id: item._id, name: 'c' });
    const loaded = await Item.findById(item._id);
    if (!loaded) throw new Error('item not found');
    loaded.name = 'd';
    await loaded.save();
    expect((await Item.findById(item._id))?.name).toBe('d');
    expect(await failureCode(() => Item.updateOne({ _id: item._id }, { _id: new mongoose.Types.ObjectId() }))).toBe(66);
  });

  it('sets two positional fields at once; conflicting paths are 40', async () => {
    const item = await Item.create({ items: [{ k: 1 }, { k: 2 }] });
    await Item.updateOne({ _id: item._id, 'items.k': 2 }, { $set: { 'items.$.x': 1, 'items.$.y': 2 } });
    expect((await Item.findById(item._id).lean())?.items).toEqual([
      { k: 1, tags: [] },
      { k: 2, x: 1, y: 2, tags: [] },
    ]);
    expect(await failureCode(() => Item.updateOne({ _id: item._id }, { $set: { n: 1 }, $inc: { n: 1 } }))).toBe(40);
  });

  it('refuses $push on a non-array, a field created inside an array, and oversized documents', async () => {
    expect(TOO_LARGE_INSERT).toContain(await failureCode(() => Item.create({ name: OVER_16_MB })));
    const item = await Item.create({ extra: 'text', items: [{ k: 1 }] });
    expect(await failureCode(() => Item.updateOne({ _id: item._id }, { $push: { extra: 1 } }))).toBe(2);
    expect(await failureCode(() => Item.updateOne({ _id: item._id }, { $set: { 'items.k': 2 } }))).toBe(28);
    await Item.updateOne({ _id: item._id }, { $set: { name: NINE_MB } });
    expect(TOO_LARGE_AFTER_UPDATE).toContain(await failureCode(() => Item.updateOne({ _id: item._id }, { $set: { extra: NINE_MB } })));
    expect((await Item.findById(item._id).select('extra').lean())?.extra).toBe('text');
  });

  it('refuses a capped collection without a size (72)', async () => {
    expect(await failureCode(() => connection.createCollection('capped_without_size', { capped: true }))).toBe(72);
  });

  it('pulls with $or and from nested arrays; $setOnInsert positional paths are ignored on a match', async () => {
    const item = await Item.create({ items: [{ k: 1, tags: ['x', 'y'] }, { k: 2, tags: ['x'] }, { k: 3 }] });
    await Item.updateOne({ _id: item._id }, { $pull: { items: { $or: [{ k: 3 }, { k: 4 }] } } });
    await Item.updateOne({ _id: item._id }, { $pull: { 'items.$[].tags': 'x' } });
    await Item.updateOne({ _id: item._id, 'items.k': 1 }, { $set: { 'items.$.x': 5 }, $setOnInsert: { 'items.$.w': 1 } }, { upsert: true });
    expect((await Item.findById(item._id).lean())?.items).toEqual([
      { k: 1, tags: ['y'], x: 5 },
      { k: 2, tags: [] },
    ]);
  });
});

// Server-side JavaScript stays off on every path that hands mingo a query, an expression or a pipeline:
// refused as `mongod --noscripting` refuses it. Always against this server: a default mongod runs scripts.
import { type Db, MongoBulkWriteError, MongoClient, MongoServerError } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LooseDocument } from '../../conformance/test-target.js';
import { type EmbeddedMongo, startEmbeddedMongo } from '../index.js';

const WHERE = { code: 6108304, message: 'no globalScriptEngine in $where parsing' };
const SCRIPT = { code: 31264, message: 'Cannot run server-side javascript without the javascript engine enabled' };
const fn = { $function: { body: 'function (x) { return x * 2 }', args: ['$n'], lang: 'js' } };

async function refusal(action: () => Promise<unknown>): Promise<{ code: unknown; message: string }> {
  const error = await action().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (error instanceof MongoBulkWriteError) {
    const [first] = error.writeErrors as unknown as Array<{ code: number; errmsg: string }>;
    return { code: first?.code, message: first?.errmsg ?? '' };
  }
  expect(error).toBeInstanceOf(MongoServerError);
  return { code: (error as MongoServerError).code, message: (error as MongoServerError).message };
}

describe('server-side JavaScript is off on the embedded server', () => {
  let server: EmbeddedMongo;
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    server = await startEmbeddedMongo();
    client = await MongoClient.connect(server.uri);
    db = client.db('scripts');
    await db.collection<LooseDocument>('items').insertMany([
      { _id: 1, n: 1, tags: ['a'] },
      { _id: 2, n: 2, tags: ['b'] },
    ]);
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  const items = () => db.collection<LooseDocument>('items');
  const where = { $where: 'function () { return true }' };

  it('refuses $where in find, count, distinct and listCollections, even on a missing collection', async () => {
    expect(await refusal(() => items().find(where).toArray())).toEqual(WHERE);
    expect(
      await refusal(() =>
        items()
          .find({ $or: [{ n: 1 }, where] })
          .toArray(),
      ),
    ).toEqual(WHERE);
    expect(
      await refusal(() =>
        items()
          .find({ _id: 1, ...where })
          .toArray(),
      ),
    ).toEqual(WHERE);
    expect(await refusal(() => db.collection('missing').find(where).toArray())).toEqual(WHERE);
    expect(await refusal(() => db.command({ count: 'missing', query: where }))).toEqual(WHERE);
    expect(await refusal(() => items().distinct('n', where))).toEqual(WHERE);
    expect(await refusal(() => db.listCollections(where).toArray())).toEqual(WHERE);
  });

  it('refuses $where in update, delete and findAndModify filters, and in a $pull condition', async () => {
    expect(await refusal(() => items().updateOne(where, { $set: { x: 1 } }))).toEqual(WHERE);
    expect(await refusal(() => items().updateOne({ ...where, n: 99 }, { $set: { x: 1 } }, { upsert: true }))).toEqual(WHERE);
    expect(await refusal(() => items().deleteMany(where))).toEqual(WHERE);
    expect(await refusal(() => items().findOneAndUpdate(where, { $set: { x: 1 } }))).toEqual(WHERE);
    expect(await refusal(() => items().updateOne({ _id: 1 }, { $pull: { tags: where } } as never))).toEqual(WHERE);
    expect(
      await items()
        .find({ x: { $exists: true } })
        .toArray(),
    ).toEqual([]);
    expect(await items().countDocuments()).toBe(2);
  });

  it('refuses $function and $accumulator in pipelines, $expr, projections and update pipelines', async () => {
    expect(
      await refusal(() =>
        items()
          .aggregate([{ $addFields: { doubled: fn } }])
          .toArray(),
      ),
    ).toEqual(SCRIPT);
    expect(
      await refusal(() =>
        db
          .collection('missing')
          .aggregate([{ $addFields: { doubled: fn } }])
          .toArray(),
      ),
    ).toEqual(SCRIPT);
    const accumulator = {
      $accumulator: {
        init: 'function () { return 0 }',
        accumulate: 'function (state, n) { return state + n }',
        accumulateArgs: ['$n'],
        merge: 'function (a, b) { return a + b }',
        lang: 'js',
      },
    };
    expect(
      await refusal(() =>
        items()
          .aggregate([{ $group: { _id: null, total: accumulator } }])
          .toArray(),
      ),
    ).toEqual(SCRIPT);
    expect(
      await refusal(() =>
        items()
          .find({ $expr: { $eq: [fn, 2] } })
          .toArray(),
      ),
    ).toEqual(SCRIPT);
    expect(
      await refusal(() =>
        items()
          .find({}, { projection: { doubled: fn } })
          .toArray(),
      ),
    ).toEqual(SCRIPT);
    expect(await refusal(() => items().updateOne({ _id: 1 }, [{ $set: { doubled: fn } }]))).toEqual(SCRIPT);
    expect(await items().findOne({ _id: 1 })).toEqual({ _id: 1, n: 1, tags: ['a'] });
  });

  it('refuses $where inside an aggregation $match (so countDocuments) with BadValue, as MongoDB does', async () => {
    const notHere = { code: 2, message: '$where is not allowed in this context' };
    expect(
      await refusal(() =>
        items()
          .aggregate([{ $match: where }])
          .toArray(),
      ),
    ).toEqual(notHere);
    expect(await refusal(() => items().countDocuments(where))).toEqual(notHere);
  });
});

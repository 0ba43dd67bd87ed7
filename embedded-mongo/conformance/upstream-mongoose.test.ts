// The four differences mongoose's own test suite found (issue 26), each pinned as MongoDB 7 answers it:
// a refused create is a failed command (gh-14611), `background` stays in an index spec (gh-8645), an
// upsert may create a top-level `$` field (gh-13786), and a BinData subtype change is stored.
import { Binary, type CommandFailedEvent, type CommandSucceededEvent, type Db, MongoClient } from 'mongodb';
import mongoose, { type Connection, Schema } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LooseDocument, openTestTarget, type TestTarget } from './test-target.js';

describe('embedded mongo: what mongoose’s own suite expects of the server', () => {
  let target: TestTarget;
  let db: Db;
  let dbName: string;
  let connection: Connection;

  beforeAll(async () => {
    target = await openTestTarget();
    dbName = target.uniqueDbName('upstream');
    db = target.client.db(dbName);
    connection = await mongoose.createConnection(target.uri, { dbName }).asPromise();
  });
  afterAll(async () => {
    await connection?.close();
    await target.close();
  });

  const collection = (name: string) => db.collection<LooseDocument>(name);

  describe('a write MongoDB refuses is a failed command (mongoose gh-14611)', () => {
    async function monitored<T>(use: (monitoredDb: Db) => Promise<T>): Promise<Array<{ kind: string; name: string; code?: unknown }>> {
      const client = await MongoClient.connect(target.uri, { monitorCommands: true });
      const events: Array<{ kind: string; name: string; code?: unknown }> = [];
      client.on('commandSucceeded', (event: CommandSucceededEvent) => events.push({ kind: 'succeeded', name: event.commandName }));
      client.on('commandFailed', (event: CommandFailedEvent) =>
        events.push({ kind: 'failed', name: event.commandName, code: (event.failure as { code?: unknown }).code }),
      );
      try {
        await use(client.db(dbName)).catch(() => undefined);
        return [...events]; // before close() adds its endSessions
      } finally {
        await client.close();
      }
    }

    it('answers capped without a size with ok: 0 InvalidOptions (72), whether capped is a bool or a number', async () => {
      // The very command mongoose's test sends: `createCollection('tests', { capped: 1024 })`.
      for (const capped of [1024, true]) {
        const events = await monitored((monitoredDb) => monitoredDb.createCollection('capped_no_size', { capped } as never));
        expect(events).toEqual([{ kind: 'failed', name: 'create', code: 72 }]);
      }
      const error = await db.createCollection('capped_no_size', { capped: 1024 } as never).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 72, message: "the 'size' field is required when 'capped' is true" });
      expect(await db.listCollections({ name: 'capped_no_size' }).toArray()).toEqual([]);
    });

    it('refuses a size or max without capped (72) and reads a non-zero number as capped: true', async () => {
      const error = await db.createCollection('size_only', { size: 4096 }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 72 });
      await db.createCollection('capped_by_number', { capped: 1, size: 4096 } as never);
      const [entry] = await db.listCollections({ name: 'capped_by_number' }).toArray();
      expect(entry && 'options' in entry ? entry.options : undefined).toMatchObject({ capped: true });
    });

    it('answers a duplicate key inside an insert with ok: 1 and writeErrors: a succeeded command', async () => {
      await collection('duplicates').insertOne({ _id: 1 });
      const events = await monitored((monitoredDb) => monitoredDb.collection<LooseDocument>('duplicates').insertOne({ _id: 1 }));
      expect(events).toEqual([{ kind: 'succeeded', name: 'insert' }]);
    });
  });

  describe('listIndexes keeps the `background` option (mongoose gh-8645)', () => {
    it('shows background as it was given, and it does not make an index different', async () => {
      const docs = collection('background');
      await docs.createIndex({ a: 1 }, { background: true });
      await docs.createIndex({ b: 1 }, { background: false });
      const byName = Object.fromEntries((await docs.listIndexes().toArray()).map((index) => [index.name, index]));
      expect(byName.a_1?.background).toBe(true);
      expect(byName.b_1?.background).toBe(false);
      // Same key and options but another background: the index already exists.
      expect(await docs.createIndex({ a: 1 }, { background: false })).toBe('a_1');
    });

    it('lets syncIndexes() overwrite the schema’s background option, as mongoose’s test does', async () => {
      const schema = new Schema({ name: String }, { autoIndex: false });
      schema.index({ name: 1 }, { background: true });
      const Model = connection.model('Background', schema);
      await Model.syncIndexes({ background: false });
      const indexes = await Model.listIndexes();
      expect(indexes[1]?.key).toEqual({ name: 1 });
      expect(indexes[1]?.background).toBe(false);
    });
  });

  describe('top-level field names starting with $ (mongoose gh-13786)', () => {
    it('lets an upsert that inserts create one with $set and $setOnInsert', async () => {
      const docs = collection('dollar_upsert');
      const result = await docs.updateOne({ _id: 1 }, { $set: { $myKey: 'set' }, $setOnInsert: { $other: 2 } }, { upsert: true });
      expect(result.upsertedId).toBe(1);
      expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, $myKey: 'set', $other: 2 });
    });

    it('refuses to set one on an existing document (DollarPrefixedFieldName, 52) and leaves it unchanged', async () => {
      const docs = collection('dollar_existing');
      await docs.insertOne({ _id: 1, a: 1 });
      const error = await docs.updateOne({ _id: 1 }, { $set: { $myKey: 'x' } }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 52 });
      expect((error as Error).message).toContain("The dollar ($) prefixed field '$myKey' in '$myKey'");
      expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, a: 1 });
    });

    it('refuses one in a replacement document (52)', async () => {
      const docs = collection('dollar_replace');
      await docs.insertOne({ _id: 1, a: 1 });
      const error = await docs.replaceOne({ _id: 1 }, { a: 2, $myKey: 'x' }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 52 });
    });

    it('runs mongoose’s updateOne with a top-level $ key', async () => {
      const Model = connection.model('DollarKey', new Schema({ $myKey: String }));
      const _id = new mongoose.Types.ObjectId();
      await Model.updateOne({ _id }, { $myKey: 'gh13786' }, { upsert: true });
      const doc = await Model.findById(_id);
      expect(doc?.get('$myKey')).toBe('gh13786');
    });
  });

  describe('the BinData subtype is stored as sent (mongoose types.buffer)', () => {
    const bytes = () => Buffer.from('hi');

    it('stores a $set of the same bytes under another subtype, at the top level, nested and in an array', async () => {
      const docs = collection('binary_subtype');
      await docs.insertOne({
        _id: 1,
        buf: new Binary(bytes(), 128),
        nested: { buf: new Binary(bytes(), 128) },
        list: [new Binary(bytes(), 128)],
      });
      const result = await docs.updateOne(
        { _id: 1 },
        { $set: { buf: new Binary(bytes(), 0), nested: { buf: new Binary(bytes(), 4) }, 'list.0': new Binary(bytes(), 5) } },
      );
      expect(result.modifiedCount).toBe(1);
      const stored = await docs.findOne({ _id: 1 });
      expect(stored?.buf.sub_type).toBe(0);
      expect(stored?.nested.buf.sub_type).toBe(4);
      expect(stored?.list[0].sub_type).toBe(5);
      expect(Buffer.from(stored?.buf.buffer).toString()).toBe('hi');
    });

    it('matches and changes the subtype through findOneAndUpdate, and counts an unchanged one as unmodified', async () => {
      const docs = collection('binary_find_and_modify');
      await docs.insertOne({ _id: 1, buf: new Binary(bytes(), 128) });
      const after = await docs.findOneAndUpdate(
        { buf: new Binary(bytes(), 128) },
        { $set: { buf: new Binary(bytes(), 0) } },
        { returnDocument: 'after' },
      );
      expect(after?.buf.sub_type).toBe(0);
      const same = await docs.updateOne({ _id: 1 }, { $set: { buf: new Binary(bytes(), 0) } });
      expect(same.modifiedCount).toBe(0);
    });

    it('retains a subtype change made through a mongoose Buffer path, as mongoose’s test does', async () => {
      interface MongooseBuffer {
        _subtype: number;
        subtype(type: number): void;
      }
      const Model = connection.model('BufferSubtype', new Schema({ buf: Buffer }));
      const bufferOf = (doc: mongoose.Document) => doc.get('buf') as unknown as MongooseBuffer;
      const created = new Model({ buf: Buffer.from('hi') });
      bufferOf(created).subtype(128);
      await created.save();
      const loaded = await Model.findById(created._id).orFail();
      expect(bufferOf(loaded)._subtype).toBe(128);
      bufferOf(loaded).subtype(0);
      await loaded.save();
      expect(bufferOf(await Model.findById(created._id).orFail())._subtype).toBe(0);
    });
  });
});

// The same behaviours as the app's repositories use them: through mongoose models.
import mongoose, { type Connection, Schema } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestTarget, type TestTarget } from './test-target.js';

const pageSchema = new Schema(
  {
    site: { type: String, required: true },
    slug: { type: String, required: true },
    title: String,
    tags: [String],
    views: { type: Number, default: 0 },
    meta: { author: String, draft: Boolean },
    externalId: String,
    owner: { type: Schema.Types.ObjectId, ref: 'Author' },
  },
  { timestamps: true },
);
pageSchema.index({ site: 1, slug: 1 }, { unique: true });
pageSchema.index({ externalId: 1 }, { unique: true, sparse: true });
pageSchema.index({ title: 1 }, { unique: true, partialFilterExpression: { 'meta.draft': false } });
pageSchema.index({ createdAt: 1 }, { expireAfterSeconds: 86_400 });

describe('embedded mongo: through mongoose models', () => {
  let target: TestTarget;
  let connection: Connection;
  let Page: mongoose.Model<mongoose.InferSchemaType<typeof pageSchema>>;
  let Author: mongoose.Model<{ name: string }>;

  beforeAll(async () => {
    target = await openTestTarget();
    connection = await mongoose.createConnection(target.uri, { dbName: target.uniqueDbName('mongoose') }).asPromise();
    Page = connection.model('Page', pageSchema);
    Author = connection.model('Author', new Schema({ name: { type: String, required: true } }));
    await Promise.all([Page.init(), Author.init()]);
  });
  afterAll(async () => {
    await connection?.close();
    await target.close();
  });

  it('builds the schema indexes with their options', async () => {
    const indexes = await Page.listIndexes();
    const byName = Object.fromEntries(indexes.map((index) => [index.name, index]));
    expect(byName.site_1_slug_1).toMatchObject({ key: { site: 1, slug: 1 }, unique: true });
    expect(byName.externalId_1).toMatchObject({ unique: true, sparse: true });
    expect(byName.title_1).toMatchObject({ unique: true, partialFilterExpression: { 'meta.draft': false } });
    expect(byName.createdAt_1).toMatchObject({ expireAfterSeconds: 86_400 });
  });

  it('creates documents and surfaces E11000 with keyValue', async () => {
    await Page.create({ site: 's1', slug: 'home', title: 'Home', meta: { draft: false } });
    const error = await Page.create({ site: 's1', slug: 'home' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 11000, keyValue: { site: 's1', slug: 'home' } });
    const draftDuplicate = await Page.create({ site: 's1', slug: 'other', title: 'Home', meta: { draft: false } }).catch(
      (caught: unknown) => caught,
    );
    expect(draftDuplicate).toMatchObject({ code: 11000, keyValue: { title: 'Home' } });
    await Page.create({ site: 's1', slug: 'draft-copy', title: 'Home', meta: { draft: true } });
  });

  it('upserts with findOneAndUpdate, setting createdAt only on insert via $setOnInsert', async () => {
    const created = await Page.findOneAndUpdate(
      { site: 's2', slug: 'about' },
      { $set: { title: 'About' } },
      { upsert: true, new: true },
    ).lean();
    expect(created).toMatchObject({ site: 's2', slug: 'about', title: 'About', views: 0 });
    expect(created?.createdAt).toBeInstanceOf(Date);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const updated = await Page.findOneAndUpdate(
      { site: 's2', slug: 'about' },
      { $inc: { views: 1 } },
      { upsert: true, returnDocument: 'after' },
    ).lean();
    expect(updated?.views).toBe(1);
    expect(updated?.createdAt).toEqual(created?.createdAt);
    expect(updated?.updatedAt.getTime()).toBeGreaterThan(created?.updatedAt.getTime() ?? Number.POSITIVE_INFINITY);
  });

  it('applies $push, $pull, $unset and $inc', async () => {
    const page = await Page.create({ site: 's3', slug: 'p', tags: ['a'], meta: { author: 'ada' } });
    await Page.updateOne({ _id: page._id }, { $push: { tags: { $each: ['b', 'c'] } }, $inc: { views: 2 } });
    await Page.updateOne({ _id: page._id }, { $pull: { tags: 'a' }, $unset: { 'meta.author': 1 } });
    const stored = await Page.findById(page._id).lean();
    expect(stored?.tags).toEqual(['b', 'c']);
    expect(stored?.views).toBe(2);
    expect(stored?.meta?.author).toBeUndefined();
  });

  it('sorts by several keys, selects, skips and limits', async () => {
    await Page.insertMany([
      { site: 'sort', slug: 'a', views: 5 },
      { site: 'sort', slug: 'b', views: 9 },
      { site: 'sort', slug: 'c', views: 5 },
      { site: 'sort', slug: 'd', views: 1 },
    ]);
    const pages = await Page.find({ site: 'sort' }).sort({ views: -1, slug: -1 }).select({ slug: 1, _id: 0 }).skip(1).limit(2).lean();
    expect(pages).toEqual([{ slug: 'c' }, { slug: 'a' }]);
  });

  it('counts, updates many and deletes many', async () => {
    expect(await Page.countDocuments({ site: 'sort', views: { $gte: 5 } })).toBe(3);
    expect(await Page.estimatedDocumentCount()).toBeGreaterThanOrEqual(8);
    const updated = await Page.updateMany({ site: 'sort' }, { $set: { 'meta.draft': true } });
    expect(updated).toMatchObject({ matchedCount: 4, modifiedCount: 4 });
    expect((await Page.deleteMany({ site: 'sort', views: { $lt: 6 } })).deletedCount).toBe(3);
    expect(await Page.countDocuments({ site: 'sort' })).toBe(1);
  });

  it('reports per-document errors from an unordered insertMany and keeps the rest', async () => {
    const error = (await Page.insertMany(
      [
        { site: 'bulk', slug: 'x' },
        { site: 'bulk', slug: 'x' },
        { site: 'bulk', slug: 'y' },
      ],
      { ordered: false },
    ).catch((caught: unknown) => caught)) as { code?: number; writeErrors?: { index: number; code?: number; err?: { code: number } }[] };
    expect(error.code ?? error.writeErrors?.[0]?.err?.code).toBe(11000);
    expect(error.writeErrors?.map((writeError) => writeError.index ?? 0)).toEqual([1]);
    expect(await Page.countDocuments({ site: 'bulk' })).toBe(2);
  });

  it('runs bulkWrite through the model', async () => {
    const result = await Page.bulkWrite([
      { insertOne: { document: { site: 'bw', slug: '1' } } },
      { updateOne: { filter: { site: 'bw', slug: '2' }, update: { $set: { title: 'Two' } }, upsert: true } },
      { deleteMany: { filter: { site: 'bw', slug: '1' } } },
    ]);
    expect(result).toMatchObject({ insertedCount: 1, upsertedCount: 1, deletedCount: 1 });
    expect(await Page.find({ site: 'bw' }).select({ slug: 1, _id: 0 }).lean()).toEqual([{ slug: '2' }]);
  });

  it('populates references (a find with $in on _id)', async () => {
    const [ada, bob] = await Author.create([{ name: 'Ada' }, { name: 'Bob' }]);
    await Page.create([
      { site: 'pop', slug: '1', owner: ada?._id },
      { site: 'pop', slug: '2', owner: bob?._id },
    ]);
    const pages = await Page.find({ site: 'pop' }).sort({ slug: 1 }).populate<{ owner: { name: string } }>('owner').lean();
    expect(pages.map((page) => page.owner.name)).toEqual(['Ada', 'Bob']);
  });

  it('drops indexes no longer in the schema with syncIndexes', async () => {
    await Page.collection.createIndex({ views: 1 });
    const dropped = await Page.syncIndexes();
    expect(dropped).toEqual(['views_1']);
    expect((await Page.listIndexes()).map((index) => index.name)).not.toContain('views_1');
  });

  it('keeps databases apart on one connection with useDb', async () => {
    const other = connection.useDb(`${connection.name}_other`);
    const OtherPage = other.model('Page', pageSchema);
    await OtherPage.create({ site: 's1', slug: 'home' });
    expect(await OtherPage.countDocuments()).toBe(1);
    expect(await Page.countDocuments({ site: 's1', slug: 'home' })).toBe(1);
    await other.dropDatabase();
  });
});

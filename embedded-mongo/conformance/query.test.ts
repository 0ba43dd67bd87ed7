// Reads: filters, sort/projection/skip/limit, cursors beyond one batch, count and distinct.
import { type Collection, type Db, ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestTarget, type TestTarget } from './test-target.js';

interface Article {
  _id: number;
  title: string;
  site: string;
  rank: number;
  author?: { name: string; country?: string };
  tags: string[];
  publishedAt?: Date;
}

const ARTICLES: Article[] = [
  {
    _id: 1,
    title: 'Hello world',
    site: 'a',
    rank: 3,
    author: { name: 'ada', country: 'uk' },
    tags: ['intro'],
    publishedAt: new Date('2024-01-01'),
  },
  { _id: 2, title: 'hello again', site: 'a', rank: 1, author: { name: 'bob' }, tags: ['intro', 'news'] },
  {
    _id: 3,
    title: 'Release notes',
    site: 'b',
    rank: 2,
    author: { name: 'ada', country: 'fr' },
    tags: ['news'],
    publishedAt: new Date('2024-03-01'),
  },
  { _id: 4, title: 'Roadmap', site: 'b', rank: 1, tags: [] },
  { _id: 5, title: 'Changelog', site: 'a', rank: 2, author: { name: 'cy' }, tags: ['news', 'dev'] },
];

describe('embedded mongo: queries and cursors through the official driver', () => {
  let target: TestTarget;
  let db: Db;
  let articles: Collection<Article>;

  beforeAll(async () => {
    target = await openTestTarget();
    db = target.client.db(target.uniqueDbName('query'));
    articles = db.collection<Article>('articles');
    await articles.insertMany(ARTICLES);
  });
  afterAll(() => target.close());

  const ids = (documents: { _id: number }[]) => documents.map((document) => document._id);

  it('filters with $in, $exists, $regex, $gt and dotted paths into nested objects', async () => {
    expect(
      ids(
        await articles
          .find({ _id: { $in: [2, 4, 9] } })
          .sort({ _id: 1 })
          .toArray(),
      ),
    ).toEqual([2, 4]);
    expect(
      ids(
        await articles
          .find({ publishedAt: { $exists: true } })
          .sort({ _id: 1 })
          .toArray(),
      ),
    ).toEqual([1, 3]);
    expect(ids(await articles.find({ author: { $exists: false } }).toArray())).toEqual([4]);
    expect(
      ids(
        await articles
          .find({ title: { $regex: '^hello', $options: 'i' } })
          .sort({ _id: 1 })
          .toArray(),
      ),
    ).toEqual([1, 2]);
    expect(ids(await articles.find({ title: /^R/ }).sort({ _id: 1 }).toArray())).toEqual([3, 4]);
    expect(ids(await articles.find({ 'author.name': 'ada', 'author.country': 'fr' }).toArray())).toEqual([3]);
    expect(
      ids(
        await articles
          .find({ tags: 'news', rank: { $gte: 2 } })
          .sort({ _id: 1 })
          .toArray(),
      ),
    ).toEqual([3, 5]);
    expect(ids(await articles.find({ publishedAt: { $gt: new Date('2024-02-01') } }).toArray())).toEqual([3]);
    expect(
      ids(
        await articles
          .find({ $or: [{ site: 'b' }, { rank: 3 }] })
          .sort({ _id: 1 })
          .toArray(),
      ),
    ).toEqual([1, 3, 4]);
  });

  it('finds a list of ids with the other conditions applied, each document once, in _id order (the _id index scan)', async () => {
    const pages = db.collection<{ _id: ObjectId | string; site: string; deleted?: boolean }>('pages');
    const [first, second, third, fourth] = [0, 1, 2, 3].map(() => new ObjectId());
    // Inserted out of _id order: the answer follows the ids, not the storage.
    await pages.insertMany([
      { _id: fourth!, site: 'a' },
      { _id: second!, site: 'a' },
      { _id: third!, site: 'b' },
      { _id: first!, site: 'a', deleted: true },
      { _id: 'k', site: 'a' },
      { _id: 'b', site: 'a' },
    ]);
    const found = await pages
      .find({ _id: { $in: [fourth!, first!, third!, second!, fourth!, new ObjectId()] }, site: 'a', deleted: { $exists: false } })
      .toArray();
    expect(found.map((page) => String(page._id))).toEqual([second!, fourth!].map(String));
    expect((await pages.find({ _id: { $in: ['k', 'b', 'x'] } }).toArray()).map((page) => page._id)).toEqual(['b', 'k']);
    expect(await pages.countDocuments({ _id: { $in: [first!, 'k'] } })).toBe(2);
  });

  it('sorts by several keys with mixed directions', async () => {
    const sorted = await articles.find({}).sort({ site: 1, rank: -1, _id: 1 }).toArray();
    expect(ids(sorted)).toEqual([1, 5, 2, 3, 4]);
  });

  it('returns documents in insertion order for a $natural sort, and reversed for -1', async () => {
    const log = db.collection<{ _id: string }>('natural');
    await log.insertMany([{ _id: 'm' }, { _id: 'a' }, { _id: 'z' }]);
    expect((await log.find({}).sort({ $natural: 1 }).toArray()).map((doc) => doc._id)).toEqual(['m', 'a', 'z']);
    expect((await log.find({}).sort({ $natural: -1 }).toArray()).map((doc) => doc._id)).toEqual(['z', 'a', 'm']);
  });

  it('applies skip and limit after sorting', async () => {
    expect(ids(await articles.find({}).sort({ _id: -1 }).skip(1).limit(2).toArray())).toEqual([4, 3]);
  });

  it('projects included fields with _id first, and excluded fields', async () => {
    const included = await articles.findOne({ _id: 1 }, { projection: { title: 1, 'author.name': 1 } });
    expect(included).toEqual({ _id: 1, title: 'Hello world', author: { name: 'ada' } });
    expect(Object.keys(included ?? {})[0]).toBe('_id');
    const excluded = await articles.findOne({ _id: 4 }, { projection: { tags: 0, _id: 0 } });
    expect(excluded).toEqual({ title: 'Roadmap', site: 'b', rank: 1 });
  });

  it('returns null for a missing _id and finds by ObjectId', async () => {
    expect(await articles.findOne({ _id: 99 })).toBeNull();
    const others = db.collection('objectids');
    const { insertedId } = await others.insertOne({ n: 1 });
    expect(await others.findOne({ _id: insertedId })).toEqual({ _id: insertedId, n: 1 });
  });

  it('streams more than 101 documents through getMore batches in order', async () => {
    const many = db.collection<{ _id: number; n: number }>('many');
    await many.insertMany(Array.from({ length: 250 }, (_, n) => ({ _id: n, n })));
    const all = await many.find({}).sort({ _id: 1 }).toArray();
    expect(all).toHaveLength(250);
    expect(all.map((document) => document.n)).toEqual(Array.from({ length: 250 }, (_, n) => n));
    const small = await many.find({ n: { $lt: 30 } }, { batchSize: 7 }).toArray();
    expect(small).toHaveLength(30);
  });

  it('kills an open cursor with killCursors, after which getMore fails', async () => {
    const cursor = db.collection('many').find({}, { batchSize: 10 });
    await cursor.next();
    const id = cursor.id;
    expect(id?.isZero()).toBe(false);
    await cursor.close();
    const error = await db.command({ getMore: id, collection: 'many' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 43 });
  });

  it('reports getMore on an unknown cursor as CursorNotFound (43)', async () => {
    const error = await db.command({ getMore: 123456789, collection: 'many' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 43 });
  });

  it('counts with countDocuments, estimatedDocumentCount and the count command', async () => {
    expect(await articles.countDocuments({ site: 'a' })).toBe(3);
    expect(await articles.countDocuments({}, { skip: 1, limit: 2 })).toBe(2);
    expect(await articles.estimatedDocumentCount()).toBe(5);
    expect(await db.command({ count: 'articles', query: { tags: 'news' } })).toMatchObject({ n: 3, ok: 1 });
    expect(await db.collection('does_not_exist').countDocuments()).toBe(0);
  });

  it('returns distinct values, expanding arrays', async () => {
    expect((await articles.distinct('site')).sort()).toEqual(['a', 'b']);
    expect((await articles.distinct('tags')).sort()).toEqual(['dev', 'intro', 'news']);
    expect((await articles.distinct('author.name', { site: 'a' })).sort()).toEqual(['ada', 'bob', 'cy']);
  });
});

// Updates: every operator the app uses, upserts with $setOnInsert, arrayFilters, replacement, pipelines.
import type { Db, Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LooseDocument, openTestTarget, type TestTarget } from './test-target.js';

describe('embedded mongo: updates through the official driver', () => {
  let target: TestTarget;
  let db: Db;

  beforeAll(async () => {
    target = await openTestTarget();
    db = target.client.db(target.uniqueDbName('update'));
  });
  afterAll(() => target.close());

  // Loose on purpose: these tests use numeric and string _ids, which the driver's Document typing forbids.
  const collection = (name: string) => db.collection<LooseDocument>(name);

  it('applies $set, $unset, $inc, $mul, $min, $max, $rename and $currentDate', async () => {
    const docs = collection('operators');
    await docs.insertOne({ _id: 1, a: 1, b: { c: 2 }, old: 'x', low: 5, high: 5, price: 10 });
    await docs.updateOne(
      { _id: 1 },
      {
        $set: { 'b.d': 3 },
        $unset: { a: '' },
        $inc: { 'b.c': 5 },
        $mul: { price: 1.5 },
        $min: { low: 1 },
        $max: { high: 9 },
        $rename: { old: 'renamed' },
        $currentDate: { touchedAt: true },
      },
    );
    const document = await docs.findOne({ _id: 1 });
    expect(document).toMatchObject({ _id: 1, b: { c: 7, d: 3 }, low: 1, high: 9, price: 15, renamed: 'x' });
    expect(document).not.toHaveProperty('a');
    expect(document).not.toHaveProperty('old');
    expect(document?.touchedAt).toBeInstanceOf(Date);
  });

  it('applies $push (with $each/$slice), $pull, $pullAll, $addToSet and $pop', async () => {
    const docs = db.collection<{ _id: number; tags: string[]; scores: number[]; set: string[]; recent?: number[] }>('arrays');
    await docs.insertOne({ _id: 1, tags: ['a', 'b', 'c', 'b'], scores: [1, 2, 3], set: ['x'] });
    await docs.updateOne(
      { _id: 1 },
      { $pull: { tags: 'b' }, $push: { scores: { $each: [4, 5], $slice: -3 } }, $addToSet: { set: { $each: ['x', 'y'] } } },
    );
    expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, tags: ['a', 'c'], scores: [3, 4, 5], set: ['x', 'y'] });
    await docs.updateOne({ _id: 1 }, { $pullAll: { scores: [3, 5] }, $pop: { tags: -1 } });
    expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, tags: ['c'], scores: [4], set: ['x', 'y'] });
    await docs.updateOne({ _id: 1 }, { $push: { recent: { $each: [1, 2, 3], $slice: -2 } } });
    expect((await docs.findOne({ _id: 1 }))?.recent).toEqual([2, 3]);
  });

  it('pulls array elements matching a condition', async () => {
    const docs = db.collection<{ _id: number; items: { k: number; done: boolean }[] }>('pull_condition');
    await docs.insertOne({
      _id: 1,
      items: [
        { k: 1, done: true },
        { k: 2, done: false },
        { k: 3, done: true },
      ],
    });
    await docs.updateOne({ _id: 1 }, { $pull: { items: { done: true } } });
    expect((await docs.findOne({ _id: 1 }))?.items).toEqual([{ k: 2, done: false }]);
  });

  it('updates array elements with the positional $ and with arrayFilters', async () => {
    const docs = collection('positional');
    await docs.insertOne({
      _id: 1,
      items: [
        { k: 1, v: 0 },
        { k: 2, v: 0 },
        { k: 3, v: 0 },
      ],
    });
    await docs.updateOne({ _id: 1, 'items.k': 2 }, { $set: { 'items.$.v': 'pos' } });
    await docs.updateOne({ _id: 1 }, { $set: { 'items.$[e].v': 'filtered' } }, { arrayFilters: [{ 'e.k': { $gte: 3 } }] });
    expect((await docs.findOne({ _id: 1 }))?.items).toEqual([
      { k: 1, v: 0 },
      { k: 2, v: 'pos' },
      { k: 3, v: 'filtered' },
    ]);
  });

  it('upserts a document from the filter equalities, applying $setOnInsert only on insert', async () => {
    const docs = collection('upserts');
    const first = await docs.updateOne(
      { slug: 'home', site: 's1' },
      { $set: { title: 'Home' }, $setOnInsert: { createdBy: 'seed' } },
      { upsert: true },
    );
    expect(first).toMatchObject({ matchedCount: 0, upsertedCount: 1 });
    expect(first.upsertedId).toBeTruthy();
    const second = await docs.updateOne(
      { slug: 'home', site: 's1' },
      { $set: { title: 'Home 2' }, $setOnInsert: { createdBy: 'other' } },
      { upsert: true },
    );
    expect(second).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
    const stored = await docs.findOne({ slug: 'home' }, { projection: { _id: 0 } });
    expect(stored).toEqual({ slug: 'home', site: 's1', title: 'Home 2', createdBy: 'seed' });
  });

  it('upserts with a given _id and with $and equalities', async () => {
    const docs = collection('upsert_ids');
    const result = await docs.updateOne(
      { _id: 'fixed', $and: [{ kind: 'k' }, { n: { $eq: 2 } }] } as Document,
      { $inc: { hits: 1 } },
      { upsert: true },
    );
    expect(result.upsertedId).toBe('fixed');
    expect(await docs.findOne({ _id: 'fixed' })).toEqual({ _id: 'fixed', kind: 'k', n: 2, hits: 1 });
  });

  it('updates many documents and reports the counts', async () => {
    const docs = collection('many_updates');
    await docs.insertMany([
      { g: 1, n: 0 },
      { g: 1, n: 0 },
      { g: 2, n: 0 },
    ]);
    const result = await docs.updateMany({ g: 1 }, { $inc: { n: 1 } });
    expect(result).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
    expect(await docs.countDocuments({ n: 1 })).toBe(2);
  });

  it('replaces a whole document, keeping its _id, and upserts a replacement', async () => {
    const docs = collection('replacements');
    await docs.insertOne({ _id: 1, a: 1, b: 2 });
    await docs.replaceOne({ _id: 1 }, { c: 3 });
    expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, c: 3 });
    const upserted = await docs.replaceOne({ _id: 2 }, { d: 4 }, { upsert: true });
    expect(upserted.upsertedId).toBe(2);
    expect(await docs.findOne({ _id: 2 })).toEqual({ _id: 2, d: 4 });
  });

  it('runs pipeline-style updates', async () => {
    const docs = collection('pipeline_updates');
    await docs.insertOne({ _id: 1, first: 'Ada', last: 'Lovelace' });
    await docs.updateOne({ _id: 1 }, [{ $set: { full: { $concat: ['$first', ' ', '$last'] } } }]);
    expect((await docs.findOne({ _id: 1 }))?.full).toBe('Ada Lovelace');
  });

  it('refuses to change _id (ImmutableField, 66)', async () => {
    const docs = collection('immutable');
    await docs.insertOne({ _id: 1, a: 1 });
    const error = await docs.updateOne({ _id: 1 }, { $set: { _id: 2 } }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 66 });
    expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, a: 1 });
  });

  it('refuses $inc on a non-numeric field (TypeMismatch, 14) and leaves the document as it was', async () => {
    const docs = collection('inc_types');
    await docs.insertOne({ _id: 1, label: 'x', count: 1 });
    const error = await docs.updateOne({ _id: 1 }, { $inc: { label: 1, count: 1 } }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 14 });
    expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, label: 'x', count: 1 });
  });

  it('refuses an unknown update operator (FailedToParse, 9) and a $set/$setOnInsert clash (40)', async () => {
    const docs = collection('bad_updates');
    await docs.insertOne({ _id: 1 });
    expect(await docs.updateOne({ _id: 1 }, { $frobnicate: { a: 1 } } as Document).catch((caught: unknown) => caught)).toMatchObject({
      code: 9,
    });
    const clash = await docs
      .updateOne({ _id: 5 }, { $set: { a: 1 }, $setOnInsert: { a: 2 } }, { upsert: true })
      .catch((caught: unknown) => caught);
    expect(clash).toMatchObject({ code: 40 });
  });

  it('findOneAndUpdate upserts, returns the new document and honours sort and projection', async () => {
    const jobs = collection('jobs');
    const created = await jobs.findOneAndUpdate(
      { key: 'j1' },
      { $setOnInsert: { attempts: 0 }, $set: { state: 'new' } },
      { upsert: true, returnDocument: 'after', projection: { _id: 0 } },
    );
    expect(created).toEqual({ key: 'j1', attempts: 0, state: 'new' });
    await jobs.insertMany([
      { key: 'q', priority: 1 },
      { key: 'q', priority: 5 },
    ]);
    const top = await jobs.findOneAndUpdate({ key: 'q' }, { $set: { taken: true } }, { sort: { priority: -1 }, returnDocument: 'after' });
    expect(top).toMatchObject({ priority: 5, taken: true });
    expect(await jobs.findOneAndUpdate({ key: 'none' }, { $set: { x: 1 } })).toBeNull();
  });

  it('findOneAndDelete and findOneAndReplace return the affected document', async () => {
    const docs = collection('fam');
    await docs.insertMany([
      { _id: 1, v: 'a' },
      { _id: 2, v: 'b' },
    ]);
    expect(await docs.findOneAndDelete({ _id: 1 })).toEqual({ _id: 1, v: 'a' });
    expect(await docs.findOneAndReplace({ _id: 2 }, { v: 'c' }, { returnDocument: 'after' })).toEqual({ _id: 2, v: 'c' });
    expect(await docs.countDocuments()).toBe(1);
  });
});

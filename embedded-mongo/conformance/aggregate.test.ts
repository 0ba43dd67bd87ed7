// Aggregation: the stages the app uses, countDocuments' pipeline, $lookup, and aggregate cursors.
import type { Db, Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestTarget, type TestTarget } from './test-target.js';

describe('embedded mongo: aggregation through the official driver', () => {
  let target: TestTarget;
  let db: Db;

  beforeAll(async () => {
    target = await openTestTarget();
    db = target.client.db(target.uniqueDbName('aggregate'));
    await db.collection('orders').insertMany([
      {
        _id: 1,
        customer: 'c1',
        items: [
          { sku: 'a', qty: 2 },
          { sku: 'b', qty: 1 },
        ],
        total: 30,
        status: 'paid',
      },
      { _id: 2, customer: 'c2', items: [{ sku: 'a', qty: 5 }], total: 50, status: 'paid' },
      { _id: 3, customer: 'c1', items: [], total: 5, status: 'open' },
      { _id: 4, customer: 'c3', items: [{ sku: 'c', qty: 1 }], total: 12, status: 'paid' },
    ] as Document[]);
    await db.collection('customers').insertMany([
      { _id: 'c1', name: 'Ada' },
      { _id: 'c2', name: 'Bob' },
    ] as Document[]);
  });
  afterAll(() => target.close());

  const run = (pipeline: Document[]) => db.collection('orders').aggregate(pipeline).toArray();

  it('matches, groups with accumulators and sorts', async () => {
    const result = await run([
      { $match: { status: 'paid' } },
      { $group: { _id: '$customer', spent: { $sum: '$total' }, orders: { $sum: 1 }, largest: { $max: '$total' } } },
      { $sort: { spent: -1 } },
    ]);
    expect(result).toEqual([
      { _id: 'c2', spent: 50, orders: 1, largest: 50 },
      { _id: 'c1', spent: 30, orders: 1, largest: 30 },
      { _id: 'c3', spent: 12, orders: 1, largest: 12 },
    ]);
  });

  it('unwinds arrays, projects and adds fields, skips and limits', async () => {
    const result = await run([
      { $unwind: '$items' },
      { $project: { _id: 0, order: '$_id', sku: '$items.sku', qty: '$items.qty' } },
      { $addFields: { double: { $multiply: ['$qty', 2] } } },
      { $sort: { order: 1, sku: 1 } },
      { $skip: 1 },
      { $limit: 2 },
    ]);
    expect(result).toEqual([
      { order: 1, sku: 'b', qty: 1, double: 2 },
      { order: 2, sku: 'a', qty: 5, double: 10 },
    ]);
  });

  it('joins another collection with $lookup', async () => {
    const result = await run([
      { $match: { _id: { $in: [1, 4] } } },
      { $lookup: { from: 'customers', localField: 'customer', foreignField: '_id', as: 'customerDoc' } },
      { $project: { customerDoc: 1 } },
      { $sort: { _id: 1 } },
    ]);
    expect(result).toEqual([
      { _id: 1, customerDoc: [{ _id: 'c1', name: 'Ada' }] },
      { _id: 4, customerDoc: [] },
    ]);
  });

  it('counts with $count and leaves stored documents untouched by $addFields', async () => {
    expect(await run([{ $match: { total: { $gt: 10 } } }, { $count: 'n' }])).toEqual([{ n: 3 }]);
    await run([{ $addFields: { total: 0, extra: true } }]);
    expect(await db.collection('orders').findOne({ _id: 1 } as Document)).toMatchObject({ total: 30 });
    expect(await db.collection('orders').countDocuments({ extra: true })).toBe(0);
  });

  it('returns aggregate results beyond the first batch through getMore', async () => {
    const numbers = db.collection('numbers');
    await numbers.insertMany(Array.from({ length: 230 }, (_, n) => ({ n })));
    const result = await numbers
      .aggregate([{ $match: { n: { $gte: 10 } } }, { $sort: { n: -1 } }, { $project: { _id: 0, n: 1 } }])
      .toArray();
    expect(result).toHaveLength(220);
    expect(result[0]).toEqual({ n: 229 });
    expect(result[219]).toEqual({ n: 10 });
  });

  it('rejects an unknown stage with code 40324', async () => {
    const error = await run([{ $frobnicate: {} }]).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 40324 });
  });
});

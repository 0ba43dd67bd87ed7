// The shared query options: built once from mingo's own options class (so a Query does not copy every operator
// table), and every Query built on them still runs the engine's operators and keeps its own condition.
import { ObjectId } from 'bson';
import { Query } from 'mingo/query';
import { describe, expect, it } from 'vitest';
import { MINGO_QUERY_COMPUTE_OPTIONS, MINGO_QUERY_OPTIONS } from './mingo-options.js';

describe('MINGO_QUERY_COMPUTE_OPTIONS', () => {
  it('is mingo’s own options object on this mingo, not the plain fallback', () => {
    expect(MINGO_QUERY_COMPUTE_OPTIONS).not.toBe(MINGO_QUERY_OPTIONS);
    expect(Object.getPrototypeOf(MINGO_QUERY_COMPUTE_OPTIONS)).not.toBe(Object.prototype);
  });

  it('runs the engine’s operators: $type by alias, $all on a single value, no server-side scripts', () => {
    const documents = [
      { _id: 1, v: new ObjectId() },
      { _id: 2, v: 'text' },
      { _id: 3, tags: 'a' },
    ];
    const ids = (filter: Record<string, unknown>) =>
      new Query(filter, MINGO_QUERY_COMPUTE_OPTIONS)
        .find(documents)
        .all()
        .map((document) => (document as { _id: number })._id);
    expect(ids({ v: { $type: 'objectId' } })).toEqual([1]);
    expect(ids({ v: { $type: 'string' } })).toEqual([2]);
    expect(ids({ tags: { $all: ['a'] } })).toEqual([3]);
    expect(() => ids({ $where: 'true' })).toThrow();
  });

  it('keeps each query to its own condition when many share the options', () => {
    const documents = [1, 2, 3, 4].map((n) => ({ _id: n, n }));
    const low = new Query({ n: { $lte: 2 } }, MINGO_QUERY_COMPUTE_OPTIONS);
    const high = new Query({ n: { $gte: 3 } }, MINGO_QUERY_COMPUTE_OPTIONS);
    expect(documents.filter((document) => low.test(document)).map((document) => document.n)).toEqual([1, 2]);
    expect(documents.filter((document) => high.test(document)).map((document) => document.n)).toEqual([3, 4]);
    expect(documents.filter((document) => low.test(document)).map((document) => document.n)).toEqual([1, 2]);
  });
});

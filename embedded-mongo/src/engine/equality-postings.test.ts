// Equality lookups through indexes answer exactly what a scan answers, in the same (natural) order, whatever
// inserts, updates that move documents between keys, and deletes came before (property), for plain values, $eq,
// arrays (multikey), mixed types and compound prefixes.
import { ObjectId } from 'bson';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CollectionStore } from './collection-store.js';
import { normalizeIndexSpec } from './index-spec.js';
import { selectDocuments } from './query-engine.js';

const oids = [new ObjectId('64b7f0000000000000000001'), new ObjectId('64b7f0000000000000000002')];
const day = new Date('2026-01-01T00:00:00Z');
const scalar = fc.oneof(
  fc.constantFrom(0, 1, 2, -0, 1.5),
  fc.constantFrom('a', 'b', ''),
  fc.constantFrom(true, false, null),
  fc.constantFrom(...oids),
  fc.constantFrom(day, new Date(day.getTime() + 1)),
);
const fieldValue = fc.oneof({ weight: 4, arbitrary: scalar }, { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) });
const body = fc.record({ g: fieldValue, h: fieldValue, k: fieldValue, n: fc.integer({ min: 0, max: 5 }) }, { requiredKeys: ['n'] });
const operation = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), id: fc.integer({ min: 0, max: 7 }), body }),
  fc.record({ kind: fc.constant('update' as const), id: fc.integer({ min: 0, max: 7 }), body }),
  fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 0, max: 7 }) }),
);
const filter = fc.oneof(
  fc.record({ g: scalar }),
  fc.record({ g: scalar, h: scalar }),
  fc.record({ k: scalar }),
  fc.record({ g: scalar.map((value) => ({ $eq: value })) }),
  fc.record({ g: scalar, n: fc.integer({ min: 0, max: 5 }).map((value) => ({ $gte: value })) }),
  fc.record({ h: scalar, g: scalar }),
);

function collection(indexed: boolean): CollectionStore {
  const store = new CollectionStore('db', 'docs', {}, () => {});
  if (indexed) {
    store.createIndex(normalizeIndexSpec({ key: { g: 1, h: -1 }, name: 'g_1_h_-1' }));
    store.createIndex(normalizeIndexSpec({ key: { k: 1 }, name: 'k_1' }));
  }
  return store;
}

type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

function apply(store: CollectionStore, operations: Operation[]): void {
  for (const step of operations) {
    const existing = store.findById(step.id);
    if (step.kind === 'insert' && !existing) store.insert({ _id: step.id, ...step.body });
    if (step.kind === 'update' && existing) store.replace(existing, { _id: step.id, ...step.body });
    if (step.kind === 'remove' && existing) store.remove(existing);
  }
}

describe('equality lookups through indexes', () => {
  it('find what a scan finds, in natural order, after any inserts, updates and deletes (property)', () => {
    fc.assert(
      fc.property(
        fc.array(operation, { minLength: 5, maxLength: 50, size: 'large' }),
        fc.array(filter, { minLength: 1, maxLength: 6 }),
        (operations, filters) => {
          const indexed = collection(true);
          const scanned = collection(false);
          apply(indexed, operations);
          apply(scanned, operations);
          for (const query of filters) {
            expect(selectDocuments(indexed, query)).toEqual(selectDocuments(scanned, query));
            expect(selectDocuments(indexed, query, { limit: 1 })).toEqual(selectDocuments(scanned, query, { limit: 1 }));
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('visits only the documents under the key, and an index built later or dropped changes no answer', () => {
    const store = collection(false);
    for (let id = 0; id < 100; id++) store.insert({ _id: id, g: id % 10, h: 'x', k: [id, id + 1] });
    const before = selectDocuments(store, { g: 3, h: 'x' });
    store.createIndex(normalizeIndexSpec({ key: { g: 1, h: 1 }, name: 'g_1_h_1' }));
    store.createIndex(normalizeIndexSpec({ key: { k: 1 }, name: 'k_1' }));
    expect(store.candidates({ g: 3, h: 'x' })?.map((document) => document._id)).toEqual([3, 13, 23, 33, 43, 53, 63, 73, 83, 93]);
    expect(store.candidates({ k: 7 })?.map((document) => document._id)).toEqual([6, 7]);
    expect(store.candidates({ g: 99 })).toEqual([]);
    // null also matches a missing field, a regex many values, an array the whole value: none is an index key lookup.
    expect(store.candidates({ g: null })).toBeUndefined();
    expect(store.candidates({ g: /3/ })).toBeUndefined();
    expect(store.candidates({ k: [7, 8] })).toBeUndefined();
    expect(store.candidates({ h: 'x' })).toBeUndefined();
    expect(selectDocuments(store, { g: 3, h: 'x' })).toEqual(before);
    store.dropIndex('g_1_h_1');
    expect(store.candidates({ g: 3, h: 'x' })).toBeUndefined();
    expect(selectDocuments(store, { g: 3, h: 'x' })).toEqual(before);
  });

  it('leaves partial and sparse indexes out: they do not hold every document', () => {
    const store = collection(false);
    store.createIndex(normalizeIndexSpec({ key: { g: 1 }, name: 'g_partial', partialFilterExpression: { n: { $gt: 1 } } }));
    store.createIndex(normalizeIndexSpec({ key: { h: 1 }, name: 'h_sparse', sparse: true }));
    store.insert({ _id: 1, g: 'a', n: 0 });
    expect(store.candidates({ g: 'a' })).toBeUndefined();
    expect(store.candidates({ h: 'a' })).toBeUndefined();
    expect(selectDocuments(store, { g: 'a' })).toEqual([{ _id: 1, g: 'a', n: 0 }]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffItemData, formatDiffValue } from './item-diff.js';

describe('diffItemData', () => {
  it('names each field restoring the revision adds, removes or changes, in the collection’s field order', () => {
    const current = { title: 'New title', body: 'Same', views: 3 };
    const revision = { title: 'Old title', body: 'Same', summary: 'Short' };
    expect(diffItemData(current, revision, ['title', 'summary', 'body', 'views'])).toEqual([
      { field: 'title', kind: 'changed', current: 'New title', revision: 'Old title' },
      { field: 'summary', kind: 'added', revision: 'Short' },
      { field: 'views', kind: 'removed', current: 3 },
    ]);
  });

  it('treats objects equal up to key order, and null like an absent value', () => {
    expect(diffItemData({ meta: { a: 1, b: [1, 2] }, note: null }, { meta: { b: [1, 2], a: 1 } })).toEqual([]);
    expect(diffItemData({ meta: { a: 1 } }, { meta: { a: 2 } })).toEqual([
      { field: 'meta', kind: 'changed', current: { a: 1 }, revision: { a: 2 } },
    ]);
  });

  it('finds no change between any data and itself, and a change for every field that differs', () => {
    const data = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), fc.oneof(fc.string(), fc.integer(), fc.boolean()));
    fc.assert(
      fc.property(data, data, (current, revision) => {
        expect(diffItemData(current, current)).toEqual([]);
        const names = new Set([...Object.keys(current), ...Object.keys(revision)]);
        const differing = [...names].filter((name) => current[name] !== revision[name]);
        expect(
          diffItemData(current, revision)
            .map((change) => change.field)
            .sort(),
        ).toEqual(differing.sort());
      }),
    );
  });
});

describe('formatDiffValue', () => {
  it('shows strings as they are, other values as JSON, and nothing as a dash', () => {
    expect(formatDiffValue('Hello')).toBe('Hello');
    expect(formatDiffValue(3)).toBe('3');
    expect(formatDiffValue({ a: 1 })).toBe('{"a":1}');
    expect(formatDiffValue(undefined)).toBe('—');
  });
});

import type { Field, ItemView } from '@lumibase/shared';
import { describe, expect, it } from 'vitest';
import { applyItemQuery, DEFAULT_QUERY, nextSort, readItemQuery, writeItemQuery } from './item-query.js';

const fields: Field[] = [
  { name: 'title', type: 'string', required: true },
  { name: 'rank', type: 'integer', required: false },
];
const item = (title: string, rank?: number): ItemView => ({
  id: title,
  collection: 'posts',
  data: { title, ...(rank === undefined ? {} : { rank }) },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('the items query in the URL', () => {
  it('reads page, size, sort and filter, falling back to defaults for nonsense', () => {
    expect(readItemQuery(new URLSearchParams('page=3&size=50&sort=-rank&q=hello'))).toEqual({
      page: 3,
      size: 50,
      sort: { key: 'rank', descending: true },
      filter: 'hello',
    });
    expect(readItemQuery(new URLSearchParams('page=0&size=7&sort='))).toEqual(DEFAULT_QUERY);
    expect(readItemQuery(new URLSearchParams('page=abc'))).toEqual(DEFAULT_QUERY);
  });

  it('writes only what differs from the defaults, and round-trips', () => {
    const params = new URLSearchParams('tab=items&page=4');
    writeItemQuery(params, DEFAULT_QUERY);
    expect(params.toString()).toBe('tab=items');
    const query = { page: 2, size: 10, sort: { key: 'title', descending: false }, filter: 'a b' };
    writeItemQuery(params, query);
    expect(readItemQuery(params)).toEqual(query);
  });

  it('cycles a column’s sort: ascending, descending, none', () => {
    const ascending = nextSort(undefined, 'title');
    expect(ascending).toEqual({ key: 'title', descending: false });
    const descending = nextSort(ascending, 'title');
    expect(descending).toEqual({ key: 'title', descending: true });
    expect(nextSort(descending, 'title')).toBeUndefined();
    expect(nextSort(descending, 'rank')).toEqual({ key: 'rank', descending: false });
  });
});

describe('applyItemQuery', () => {
  const items = [item('Banana', 2), item('apple', 10), item('Cherry'), item('date', 1)];

  it('sorts text without regard to case and numbers as numbers, empty values last either way', () => {
    const byTitle = applyItemQuery(items, fields, { ...DEFAULT_QUERY, sort: { key: 'title', descending: false } });
    expect(byTitle.data.map((row) => row.id)).toEqual(['apple', 'Banana', 'Cherry', 'date']);
    const byRank = applyItemQuery(items, fields, { ...DEFAULT_QUERY, sort: { key: 'rank', descending: false } });
    expect(byRank.data.map((row) => row.id)).toEqual(['date', 'Banana', 'apple', 'Cherry']);
    const byRankDown = applyItemQuery(items, fields, { ...DEFAULT_QUERY, sort: { key: 'rank', descending: true } });
    expect(byRankDown.data.map((row) => row.id)).toEqual(['apple', 'Banana', 'date', 'Cherry']);
  });

  it('filters by every word in any field, then cuts the page', () => {
    expect(applyItemQuery(items, fields, { ...DEFAULT_QUERY, filter: 'AN' }).data.map((row) => row.id)).toEqual(['Banana']);
    expect(applyItemQuery(items, fields, { ...DEFAULT_QUERY, filter: 'a 10' }).data.map((row) => row.id)).toEqual(['apple']);
    const page = applyItemQuery(items, fields, { ...DEFAULT_QUERY, size: 3, page: 2 });
    expect(page).toEqual({ data: [items[3]], total: 4 });
  });
});

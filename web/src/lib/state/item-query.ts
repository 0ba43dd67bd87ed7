// What the items table shows, kept in the URL (`?page=&size=&sort=&q=`) so reload and Back keep it: the page, the page
// size, a sort by one column and a text filter. Sorting and filtering run here over the collection's items, since the
// items API pages only by insertion order.
import type { Field, ItemView } from '@lumibase/shared';

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;
/** Sorting or filtering reads at most this many items of a collection. */
export const LOCAL_QUERY_MAX = 1000;

export interface ItemSort {
  /** A field's name, or `updatedAt`. */
  key: string;
  descending: boolean;
}

export interface ItemQuery {
  page: number;
  size: number;
  sort?: ItemSort | undefined;
  filter: string;
}

export const DEFAULT_QUERY: ItemQuery = { page: 1, size: DEFAULT_PAGE_SIZE, filter: '' };

function positiveInteger(text: string | null): number | undefined {
  if (text === null || !/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 1 ? value : undefined;
}

export function readItemQuery(params: URLSearchParams): ItemQuery {
  const size = positiveInteger(params.get('size'));
  const sortText = params.get('sort') ?? '';
  const key = sortText.replace(/^-/, '');
  return {
    page: positiveInteger(params.get('page')) ?? 1,
    size: size !== undefined && (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
    sort: key ? { key, descending: sortText.startsWith('-') } : undefined,
    filter: params.get('q') ?? '',
  };
}

/** Writes the query into `params`, leaving defaults out (page 1 has a plain URL). */
export function writeItemQuery(params: URLSearchParams, query: ItemQuery): void {
  const entries: [string, string | undefined][] = [
    ['page', query.page > 1 ? String(query.page) : undefined],
    ['size', query.size !== DEFAULT_PAGE_SIZE ? String(query.size) : undefined],
    ['sort', query.sort ? `${query.sort.descending ? '-' : ''}${query.sort.key}` : undefined],
    ['q', query.filter.trim() ? query.filter : undefined],
  ];
  for (const [name, value] of entries) {
    if (value === undefined) params.delete(name);
    else params.set(name, value);
  }
}

/** Whether the query needs the items read here (sorted or filtered) rather than one page from the API. */
export function isLocalQuery(query: ItemQuery): boolean {
  return query.sort !== undefined || query.filter.trim() !== '';
}

/** Clicking a column's heading: ascending first, then descending, then back to the API's order. */
export function nextSort(current: ItemSort | undefined, key: string): ItemSort | undefined {
  if (current?.key !== key) return { key, descending: false };
  return current.descending ? undefined : { key, descending: true };
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function sortValue(item: ItemView, key: string): unknown {
  return key === 'updatedAt' ? item.updatedAt : item.data[key];
}

function compareValues(left: unknown, right: unknown): number {
  // Empty values go last whichever way the column is sorted.
  const leftEmpty = left === undefined || left === null || left === '';
  const rightEmpty = right === undefined || right === null || right === '';
  if (leftEmpty || rightEmpty) return leftEmpty === rightEmpty ? 0 : leftEmpty ? 1 : -1;
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  if (typeof left === 'boolean' && typeof right === 'boolean') return Number(left) - Number(right);
  return textOf(left).localeCompare(textOf(right), undefined, { numeric: true, sensitivity: 'base' });
}

/** Filters (any field's text contains every word, case-insensitively), sorts and cuts one page. */
export function applyItemQuery(
  items: readonly ItemView[],
  fields: readonly Field[],
  query: ItemQuery,
): { data: ItemView[]; total: number } {
  const words = query.filter.toLowerCase().split(/\s+/).filter(Boolean);
  const matching = items.filter((item) => {
    if (words.length === 0) return true;
    const text = fields
      .map((field) => textOf(item.data[field.name]))
      .join(' ')
      .toLowerCase();
    return words.every((word) => text.includes(word));
  });
  const sort = query.sort;
  if (sort) {
    const direction = sort.descending ? -1 : 1;
    matching.sort((left, right) => {
      const leftValue = sortValue(left, sort.key);
      const rightValue = sortValue(right, sort.key);
      const empty = (value: unknown) => value === undefined || value === null || value === '';
      if (empty(leftValue) || empty(rightValue)) return compareValues(leftValue, rightValue);
      return direction * compareValues(leftValue, rightValue);
    });
  }
  const start = (query.page - 1) * query.size;
  return { data: matching.slice(start, start + query.size), total: matching.length };
}

// How an executed skill's result reads in the Copilot's thread: collections as a list, items by their fields,
// anything else as pretty JSON. The result is data from the server; its shape is checked, never assumed.
import { type Closeness, relevantHits } from './search-relevance.js';
import { truncate } from './values.js';

export type ResultView =
  | { kind: 'collections'; collections: { name: string; label: string | undefined; fields: string[] }[] }
  | { kind: 'items'; collection: string; total: number; items: { id: string; summary: string }[] }
  | { kind: 'item'; collection: string; id: string; entries: { key: string; value: string }[] }
  | { kind: 'search'; query: string; hits: SearchCard[] }
  | {
      kind: 'suggestion';
      name: string;
      type: string;
      required: boolean;
      rationale: string | undefined;
      similar: { collection: string; field: string }[];
    }
  | { kind: 'assist'; field: string; value: string; rationale: string | undefined; sources: { collection: string; id: string }[] }
  | { kind: 'notice'; text: string }
  | { kind: 'json'; text: string };

type Loose = Record<string, unknown>;

/** A search hit as a card: the item's title, its collection, how close it is. */
export interface SearchCard {
  collection: string;
  id: string;
  title: string;
  snippet: string | undefined;
  closeness: Closeness;
}

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';

function fieldNames(fields: unknown): string[] {
  return Array.isArray(fields) ? fields.flatMap((field) => (isObject(field) && isString(field.name) ? [field.name] : [])) : [];
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return truncate(isString(value) ? value : JSON.stringify(value), 120);
}

function isItem(value: unknown): value is { id: string; collection: string; data: Loose } {
  return isObject(value) && isString(value.id) && isString(value.collection) && isObject(value.data);
}

function itemSummary(data: Loose): string {
  const first = Object.values(data).find((value) => isString(value) && value.trim() !== '');
  return first ? truncate(first as string, 60) : truncate(JSON.stringify(data), 60);
}

function collectionSummary(collection: Loose): { name: string; label: string | undefined; fields: string[] }[] {
  if (!isString(collection.name)) return [];
  return [
    { name: collection.name, label: isString(collection.label) ? collection.label : undefined, fields: fieldNames(collection.fields) },
  ];
}

/** "(posts 6b0f…)" in a rationale → "(an item of posts)": editors read titles and words, not ids. */
function withoutIds(text: string): string {
  return text.replace(/\(([a-z][a-z0-9_]*) [0-9a-f]{24}\)/g, '(an item of $1)');
}

/** An item's title: its title/name field, else its first text, else nothing. */
function titleOf(data: unknown): string | undefined {
  if (!isObject(data)) return undefined;
  for (const key of ['title', 'name', 'headline', 'label'])
    if (isString(data[key]) && data[key].trim() !== '') return truncate(data[key], 80);
  const first = Object.values(data).find((value) => isString(value) && value.trim() !== '');
  return first ? truncate(first as string, 80) : undefined;
}

function searchCards(items: unknown[]): SearchCard[] {
  const hits = items.flatMap((hit) =>
    isObject(hit) && isString(hit.collection) && isString(hit.id) && typeof hit.score === 'number'
      ? [
          {
            collection: hit.collection,
            id: hit.id,
            score: hit.score,
            snippet: isString(hit.snippet) ? hit.snippet : undefined,
            item: hit.item,
          },
        ]
      : [],
  );
  return relevantHits(hits).map((hit) => ({
    collection: hit.collection,
    id: hit.id,
    title: titleOf(isObject(hit.item) ? hit.item.data : undefined) ?? (hit.snippet ? truncate(hit.snippet, 80) : 'Untitled item'),
    snippet: hit.snippet,
    closeness: hit.closeness,
  }));
}

export function describeResult(data: unknown): ResultView {
  if (isObject(data)) {
    if (isString(data.query) && Array.isArray(data.items)) return { kind: 'search', query: data.query, hits: searchCards(data.items) };
    if (isObject(data.suggestion) && isString(data.suggestion.name)) {
      const similar = Array.isArray(data.similar)
        ? data.similar.flatMap((entry) =>
            isObject(entry) && isString(entry.collection) && isString(entry.field)
              ? [{ collection: entry.collection, field: entry.field }]
              : [],
          )
        : [];
      return {
        kind: 'suggestion',
        name: data.suggestion.name,
        type: isString(data.suggestion.type) ? data.suggestion.type : 'string',
        required: data.suggestion.required === true,
        rationale: isString(data.rationale) ? data.rationale : undefined,
        similar,
      };
    }
    if (isString(data.field) && 'value' in data && Array.isArray(data.sources)) {
      const sources = data.sources.flatMap((entry) =>
        isObject(entry) && isString(entry.collection) && isString(entry.id) ? [{ collection: entry.collection, id: entry.id }] : [],
      );
      return {
        kind: 'assist',
        field: data.field,
        value: isString(data.value) ? data.value : (JSON.stringify(data.value) ?? ''),
        rationale: isString(data.rationale) ? withoutIds(data.rationale) : undefined,
        sources,
      };
    }
    if (Array.isArray(data.collections)) {
      const collections = data.collections.filter(isObject).flatMap(collectionSummary);
      return { kind: 'collections', collections };
    }
    if (isString(data.collection) && Array.isArray(data.items)) {
      const items = data.items.filter(isItem).map((item) => ({ id: item.id, summary: itemSummary(item.data) }));
      return { kind: 'items', collection: data.collection, total: typeof data.total === 'number' ? data.total : items.length, items };
    }
    if (isItem(data)) {
      const entries = Object.entries(data.data).map(([key, value]) => ({ key, value: valueText(value) }));
      return { kind: 'item', collection: data.collection, id: data.id, entries };
    }
    if (data.available === false && isString(data.message)) return { kind: 'notice', text: data.message };
    if (data.deleted === true && isString(data.collection)) {
      return {
        kind: 'notice',
        text: isString(data.id) ? `Deleted the item from ${data.collection}.` : `Deleted ${data.collection}.`,
      };
    }
  }
  return { kind: 'json', text: JSON.stringify(data, null, 2) ?? String(data) };
}

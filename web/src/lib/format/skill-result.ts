// How an executed skill's result reads in the Copilot's thread: collections as a list, items by their fields,
// anything else as pretty JSON. The result is data from the server; its shape is checked, never assumed.
import { truncate } from './values.js';

export type ResultView =
  | { kind: 'collections'; collections: { name: string; label: string | undefined; fields: string[] }[] }
  | { kind: 'items'; collection: string; total: number; items: { id: string; summary: string }[] }
  | { kind: 'item'; collection: string; id: string; entries: { key: string; value: string }[] }
  | { kind: 'notice'; text: string }
  | { kind: 'json'; text: string };

type Loose = Record<string, unknown>;

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

export function describeResult(data: unknown): ResultView {
  if (isObject(data)) {
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
        text: isString(data.id) ? `Deleted item ${data.id} from ${data.collection}.` : `Deleted ${data.collection}.`,
      };
    }
  }
  return { kind: 'json', text: JSON.stringify(data, null, 2) ?? String(data) };
}

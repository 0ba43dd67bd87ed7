// What gets embedded: an item as its collection's label and its textual values, a collection as its schema;
// bounded in length, with a content hash so unchanged text is never embedded twice.
import { createHash } from 'node:crypto';
import type { Field } from '@lumibase/shared';

/** Longest text sent to an embedder (remote models take about 8k tokens; a few thousand characters say enough). */
export const MAX_EMBEDDING_TEXT = 4000;
/** Longest snippet shown with a search result. */
export const MAX_SNIPPET = 200;

const TEXT_TYPES = new Set<Field['type']>(['string', 'text', 'enum']);

export interface CollectionShape {
  name: string;
  label?: string;
  fields: readonly Field[];
}

function bounded(text: string, max: number): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed.length <= max ? collapsed : `${collapsed.slice(0, max - 1).trimEnd()}…`;
}

/** The item's string, text and enum values in field order (values of removed fields are ignored). */
export function itemValues(collection: CollectionShape, data: Record<string, unknown>): string[] {
  const values: string[] = [];
  for (const field of collection.fields) {
    if (!TEXT_TYPES.has(field.type)) continue;
    const value = data[field.name];
    if (typeof value === 'string' && value.trim() !== '') values.push(value.trim());
  }
  return values;
}

/** `<label>: <value>. <value>. …`, at most MAX_EMBEDDING_TEXT characters. */
export function itemText(collection: CollectionShape, data: Record<string, unknown>): string {
  return bounded(`${collection.label ?? collection.name}: ${itemValues(collection, data).join('. ')}`, MAX_EMBEDDING_TEXT);
}

/** The collection's schema in words: its name, label and each field's name and type (enum values too). */
export function schemaText(collection: CollectionShape): string {
  const fields = collection.fields.map((field) => {
    const words = field.name.replaceAll('_', ' ');
    const values =
      field.type === 'enum' && Array.isArray(field.options?.values) ? ` (${(field.options.values as string[]).join(', ')})` : '';
    return `${words} ${field.type}${values}`;
  });
  const name = collection.name.replaceAll('_', ' ');
  return bounded(`collection ${name}${collection.label ? ` (${collection.label})` : ''}: ${fields.join('; ')}`, MAX_EMBEDDING_TEXT);
}

/** The start of the item's textual values, what a search result shows. */
export function itemSnippet(collection: CollectionShape, data: Record<string, unknown>): string {
  return bounded(itemValues(collection, data).join(' · '), MAX_SNIPPET);
}

export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

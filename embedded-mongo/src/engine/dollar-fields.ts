// Top-level field names that start with `$` (allowed since MongoDB 5.0). mongod checks each modifier's
// result for storage with top-level `$` names refused (52), except when an upsert inserts: then it skips
// that check and validates the whole new document with top-level `$` names allowed. So an upserting
// `$set` / `$setOnInsert` may create `$name`; on an existing document the same update answers 52.
// mingo refuses every such path, so these are applied here, around it.
import type { Document } from 'bson';
import { cloneDeep, setValue } from 'mingo/util';
import { CommandError } from './command-error.js';
import { isPositional, valueAtPath } from './update-paths.js';

/** `$name` or `$name.sub`, as opposed to a positional part or an ordinary path. */
export function isDollarPrefixedPath(path: string): boolean {
  const first = path.split('.', 1)[0] as string;
  return first.startsWith('$') && !isPositional(first);
}

/** mongod's refusal of a `$`-prefixed top-level field (storage_validation.cpp). */
export function dollarPrefixedFieldError(field: string): CommandError {
  return new CommandError(
    'DollarPrefixedFieldName',
    `The dollar ($) prefixed field '${field}' in '${field}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`,
  );
}

export interface DollarFieldWrites {
  sets: Array<[string, unknown]>;
  unsets: string[];
}

/** Sorts one operator path on a `$` field into `writes`, or refuses it as mongod does. */
export function collectDollarWrite(writes: DollarFieldWrites, operator: string, path: string, value: unknown, inserting: boolean): void {
  if (operator === '$unset') {
    writes.unsets.push(path);
    return;
  }
  if (inserting && (operator === '$set' || operator === '$setOnInsert')) {
    writes.sets.push([path, value]);
    return;
  }
  throw dollarPrefixedFieldError(path.split('.', 1)[0] as string);
}

export function applyDollarWrites(document: Document, writes: DollarFieldWrites): void {
  for (const [path, value] of writes.sets) setValue(document, path, cloneDeep(value));
  for (const path of writes.unsets) {
    const parts = path.split('.');
    const last = parts.pop() as string;
    const parent = parts.length ? valueAtPath(document, parts.join('.')) : document;
    if (typeof parent === 'object' && parent !== null && !Array.isArray(parent)) delete (parent as Document)[last];
  }
}

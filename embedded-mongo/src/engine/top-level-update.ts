// The update operators nearly every write uses ($set, $unset, $inc, $max, $min) on top-level fields, applied
// directly: what mingo's updater would do to the same document, without building its context for each update.
import type { Document } from 'bson';
import { cloneDeep } from 'mingo/util';

const DIRECT = new Set(['$set', '$unset', '$inc', '$max', '$min']);

function plainField(path: string): boolean {
  return path !== '_id' && path.length > 0 && !path.includes('.') && !path.startsWith('$');
}

/** Numbers with numbers, dates with dates: the comparisons $max and $min make without BSON's cross-type order. */
function comparable(current: unknown, value: unknown): boolean {
  if (current === undefined) return true;
  if (typeof current === 'number' && typeof value === 'number') return !Number.isNaN(current) && !Number.isNaN(value);
  return current instanceof Date && value instanceof Date;
}

function appliesDirectly(modifier: Document, document: Document): boolean {
  for (const [operator, fields] of Object.entries(modifier)) {
    if (!DIRECT.has(operator)) return false;
    for (const [path, value] of Object.entries(fields as Document)) {
      if (!plainField(path)) return false;
      const current = document[path];
      if (operator === '$inc' && (typeof value !== 'number' || (current !== undefined && typeof current !== 'number'))) return false;
      if ((operator === '$max' || operator === '$min') && !comparable(current, value)) return false;
    }
  }
  return true;
}

/**
 * Applies `modifier` to `document` in place when every operator is one of the above and every path a plain top-level
 * field (not `_id`); false, with `document` untouched, otherwise (mingo's updater then applies it).
 */
export function applyTopLevelUpdate(document: Document, modifier: Document): boolean {
  if (!appliesDirectly(modifier, document)) return false;
  for (const [operator, fields] of Object.entries(modifier)) {
    for (const [path, value] of Object.entries(fields as Document)) {
      const current = document[path];
      if (operator === '$set') document[path] = cloneDeep(value);
      else if (operator === '$unset') delete document[path];
      else if (operator === '$inc') document[path] = current === undefined ? value : (current as number) + (value as number);
      else if (current === undefined) document[path] = cloneDeep(value);
      else if (operator === '$max' ? value > (current as number | Date) : value < (current as number | Date))
        document[path] = cloneDeep(value);
    }
  }
  return true;
}

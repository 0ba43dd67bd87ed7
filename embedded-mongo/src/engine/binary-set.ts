// mingo's $set leaves a field alone when the new value equals the old, and its equality ignores
// BinData's subtype (it compares the bytes as text): setting the same bytes under another subtype was
// lost. MongoDB stores the new subtype. Values holding a Binary are written again after mingo.
import type { Document } from 'bson';
import { valueAtPath } from './update-paths.js';

function containsBinary(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(containsBinary);
  if (Object.getPrototypeOf(value) === Object.prototype) return Object.values(value).some(containsBinary);
  return (value as { _bsontype?: string })._bsontype === 'Binary';
}

/** Writes each `$set` value holding a Binary at its (concrete) path, where mingo has already created it. */
export function rewriteBinarySets(document: Document, set: Document | undefined): void {
  if (!set) return;
  for (const [path, value] of Object.entries(set)) {
    if (!containsBinary(value)) continue;
    const parts = path.split('.');
    const last = parts.pop() as string;
    const parent = parts.length ? valueAtPath(document, parts.join('.')) : document;
    if (Array.isArray(parent)) parent[Number(last)] = value;
    else if (typeof parent === 'object' && parent !== null) (parent as Document)[last] = value;
  }
}

// Equality lookups through one secondary index: for each leading prefix of its fields (siteId; siteId + status; …),
// the documents holding each combination of values, so a read whose filter names those fields with plain values
// visits the documents that can match instead of the whole collection. The filter still runs on what is visited.
import { type Document, ObjectId } from 'bson';
import { cartesian, entryKey, type SecondaryIndex, valuesAtPath } from './index-spec.js';
import { valueKey } from './value-key.js';

/** The documents under one key, in the order they were added; `ordered` while that is also their natural order. */
interface Posting {
  ids: Set<string>;
  lastOrdinal: number;
  ordered: boolean;
}

export interface PostingMatch {
  /** _id keys of every document that can match (a superset of the matches). */
  ids: Set<string>;
  /** False when `ids` is not in natural order (a document moved between keys by an update). */
  ordered: boolean;
  /** Re-orders `ids` as given (the caller sorted them) so the next lookup needs no sort. */
  reorder(sorted: string[]): void;
}

/** A filter value an index key can answer for: equality to it is equality of index keys (valueKey). */
function indexableValue(condition: unknown): { value: unknown } | undefined {
  const value =
    typeof condition === 'object' && condition !== null && Object.getPrototypeOf(condition) === Object.prototype
      ? onlyEq(condition as Document)
      : condition;
  if (typeof value === 'string' || typeof value === 'boolean') return { value };
  if (typeof value === 'number') return Number.isNaN(value) ? undefined : { value };
  if (value instanceof ObjectId) return { value };
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : { value };
  // null (also matches missing), arrays (whole-array equality), embedded documents, regexes, operators: a scan.
  return undefined;
}

function onlyEq(condition: Document): unknown {
  const keys = Object.keys(condition);
  return keys.length === 1 && keys[0] === '$eq' ? condition.$eq : undefined;
}

/** Whether `index` can serve equality lookups: every field a plain top-level name, ascending or descending, every document in it. */
export function servesEquality(index: SecondaryIndex): boolean {
  const { spec, fields } = index;
  if (spec.partialFilterExpression || spec.sparse) return false;
  return fields.every((field) => !field.includes('.') && !field.startsWith('$') && (spec.key[field] === 1 || spec.key[field] === -1));
}

export class EqualityPostings {
  /** prefixes[k - 1]: key of the first k fields' values → the documents holding them. */
  private readonly prefixes: Map<string, Posting>[];

  constructor(readonly index: SecondaryIndex) {
    this.prefixes = index.fields.map(() => new Map());
  }

  add(idKey: string, ordinal: number, document: Document): void {
    this.keysOf(document).forEach((keys, prefix) => {
      for (const key of keys) this.addTo(this.prefixes[prefix] as Map<string, Posting>, key, idKey, ordinal);
    });
  }

  remove(idKey: string, document: Document): void {
    this.keysOf(document).forEach((keys, prefix) => {
      const postings = this.prefixes[prefix] as Map<string, Posting>;
      for (const key of keys) {
        const posting = postings.get(key);
        if (!posting) continue;
        posting.ids.delete(idKey);
        if (posting.ids.size === 0) postings.delete(key);
      }
    });
  }

  /** An update: only keys the document gained or lost move, so a document whose keys stay keeps its place. */
  replace(idKey: string, ordinal: number, previous: Document, next: Document): void {
    const before = this.keysOf(previous);
    const after = this.keysOf(next);
    before.forEach((keys, prefix) => {
      const postings = this.prefixes[prefix] as Map<string, Posting>;
      const kept = new Set(after[prefix]);
      for (const key of keys) {
        if (kept.has(key)) continue;
        const posting = postings.get(key);
        posting?.ids.delete(idKey);
        if (posting?.ids.size === 0) postings.delete(key);
      }
    });
    after.forEach((keys, prefix) => {
      const had = new Set(before[prefix]);
      for (const key of keys) if (!had.has(key)) this.addTo(this.prefixes[prefix] as Map<string, Posting>, key, idKey, ordinal);
    });
  }

  /**
   * The documents that can match `filter` through this index's longest leading prefix the filter names with plain
   * values; undefined when it does not name the first field that way.
   */
  lookup(filter: Document): PostingMatch | undefined {
    const parts: string[] = [];
    for (const field of this.index.fields) {
      if (!Object.hasOwn(filter, field)) break;
      const indexable = indexableValue(filter[field]);
      if (!indexable) break;
      parts.push(valueKey(indexable.value));
    }
    if (parts.length === 0) return undefined;
    const posting = this.prefixes[parts.length - 1]?.get(entryKey(parts));
    if (!posting) return { ids: new Set(), ordered: true, reorder: () => {} };
    return {
      ids: posting.ids,
      ordered: posting.ordered,
      reorder: (sorted) => {
        posting.ids = new Set(sorted);
        posting.ordered = true;
      },
    };
  }

  private addTo(postings: Map<string, Posting>, key: string, idKey: string, ordinal: number): void {
    let posting = postings.get(key);
    if (!posting) {
      posting = { ids: new Set(), lastOrdinal: ordinal, ordered: true };
      postings.set(key, posting);
    }
    if (ordinal < posting.lastOrdinal) posting.ordered = false;
    posting.lastOrdinal = Math.max(posting.lastOrdinal, ordinal);
    posting.ids.add(idKey);
  }

  /** For each prefix length, the distinct keys `document` has (arrays expand as in a multikey index). */
  private keysOf(document: Document): string[][] {
    const perField = this.index.fields.map((field) => [...new Set(valuesAtPath(document, field).map(valueKey))]);
    return perField.map((_, prefix) => cartesian(perField.slice(0, prefix + 1)).map(entryKey));
  }
}

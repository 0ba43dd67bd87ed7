// Index specifications and the keys a document contributes to one (multikey, sparse, partial).
import type { Document } from 'bson';
import { Query } from 'mingo/query';
import { CommandError } from './command-error.js';
import { MINGO_QUERY_COMPUTE_OPTIONS } from './mingo-options.js';
import { valueKey } from './value-key.js';

export interface IndexSpec {
  v: number;
  key: Document;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Document;
  expireAfterSeconds?: number;
  [option: string]: unknown;
}

export const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

/** MongoDB's default name: `field_direction` pairs joined by `_`, e.g. `site_1_createdAt_-1`. */
export function defaultIndexName(key: Document): string {
  return Object.entries(key)
    .map(([field, direction]) => `${field}_${direction}`)
    .join('_');
}

const ACCEPTED_OPTIONS = new Set([
  'key',
  'name',
  'unique',
  'sparse',
  'partialFilterExpression',
  'expireAfterSeconds',
  'background',
  'v',
  'ns',
  'collation',
  'hidden',
  'weights',
  'default_language',
  'language_override',
  'textIndexVersion',
  '2dsphereIndexVersion',
  'bits',
  'min',
  'max',
  'wildcardProjection',
]);

/** Validates a createIndexes entry and returns the spec as listIndexes will show it. */
export function normalizeIndexSpec(raw: Document): IndexSpec {
  const key = raw.key as Document | undefined;
  if (!key || typeof key !== 'object' || Object.keys(key).length === 0) {
    throw new CommandError('CannotCreateIndex', 'Index key pattern must be a non-empty object');
  }
  if (typeof raw.name !== 'string' || raw.name.length === 0) throw new CommandError('CannotCreateIndex', 'Index must have a name');
  for (const option of Object.keys(raw)) {
    if (!ACCEPTED_OPTIONS.has(option))
      throw new CommandError('InvalidOptions', `The field '${option}' is not valid for an index specification`);
  }
  if (raw.expireAfterSeconds !== undefined && (typeof raw.expireAfterSeconds !== 'number' || Object.keys(key).length !== 1)) {
    throw new CommandError('CannotCreateIndex', 'TTL index needs a numeric expireAfterSeconds and exactly one field');
  }
  // `background` is ignored since 4.2 but kept in the spec, as mongod keeps it (listIndexes shows it).
  const { ns: _ns, v: _v, ...rest } = raw;
  const spec: IndexSpec = { v: 2, key, name: raw.name };
  for (const [option, value] of Object.entries(rest)) if (option !== 'key' && option !== 'name') spec[option] = value;
  if (spec.unique === false) delete spec.unique;
  if (spec.sparse === false) delete spec.sparse;
  return spec;
}

/** Leaf values at a dotted path, expanding arrays the way a multikey index does; missing → [undefined]. */
export function valuesAtPath(document: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  collect(document, path.split('.'), 0, out);
  return out.length ? out : [undefined];
}

function collect(value: unknown, parts: string[], depth: number, out: unknown[]): void {
  if (depth === parts.length) {
    if (Array.isArray(value)) {
      if (value.length === 0) out.push(undefined);
      else out.push(...value);
    } else {
      out.push(value);
    }
    return;
  }
  const part = parts[depth] as string;
  if (Array.isArray(value)) {
    if (/^\d+$/.test(part)) {
      collect(value[Number(part)], parts, depth + 1, out);
      return;
    }
    for (const element of value) if (isPlainObject(element)) collect(element[part], parts, depth + 1, out);
    return;
  }
  if (isPlainObject(value)) collect(value[part], parts, depth + 1, out);
  else out.push(undefined);
}

function isPlainObject(value: unknown): value is Document {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

export interface IndexEntryKey {
  key: string;
  values: unknown[];
}

/** One secondary index: its spec and the keys each document contributes. */
export class SecondaryIndex {
  readonly fields: string[];
  private readonly partial: Query | undefined;

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    this.partial = spec.partialFilterExpression ? new Query(spec.partialFilterExpression, MINGO_QUERY_COMPUTE_OPTIONS) : undefined;
  }

  /** The distinct keys `document` has in this index; empty when sparse or partial leaves it out. */
  keysOf(document: Document): IndexEntryKey[] {
    if (this.partial && !this.partial.test(document)) return [];
    const perField = this.fields.map((field) => valuesAtPath(document, field));
    if (this.spec.sparse && perField.every((values) => values.every((value) => value === undefined))) return [];
    const keys = new Map<string, unknown[]>();
    for (const combination of cartesian(perField)) {
      const parts = combination.map(valueKey);
      keys.set(entryKey(parts), combination);
    }
    return [...keys].map(([key, values]) => ({ key, values }));
  }
}

/** An index entry's key from its fields' value keys (valueKey), one per indexed field, in the index's order. */
export function entryKey(parts: readonly string[]): string {
  return parts.length === 1 ? (parts[0] as string) : JSON.stringify(parts);
}

/** Every combination taking one value from each list, in order (a multikey document's entries). */
export function cartesian<T>(lists: T[][]): T[][] {
  let combinations: T[][] = [[]];
  for (const list of lists) combinations = combinations.flatMap((prefix) => list.map((value) => [...prefix, value]));
  return combinations;
}

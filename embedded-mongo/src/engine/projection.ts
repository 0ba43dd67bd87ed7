// Find projections by MongoDB's rules: inclusion or exclusion (never both, except `_id`), `$slice` that keeps
// every other field unless the projection includes, and `$elemMatch` (an inclusion) on arrays of documents
// or of scalars. mingo applies the plain inclusion/exclusion part; this module the rest.
import type { Document } from 'bson';
import { Query } from 'mingo/query';
import { CommandError } from './command-error.js';
import { MINGO_QUERY_COMPUTE_OPTIONS } from './mingo-options.js';

export interface CompiledProjection {
  /** What mingo applies: plain inclusions/exclusions and expressions, never `$slice`/`$elemMatch`. */
  base: Document | undefined;
  /** The rest of the projection, on what mingo returned (a stored document is never modified). */
  apply(projected: Document): Document;
  /**
   * The whole projection of a stored document without mingo, when it only includes or only excludes top-level
   * fields (what nearly every read asks for): the fields kept in the document's own order, as MongoDB returns them.
   */
  direct?: (document: Document) => Document;
}

/** Top-level plain inclusions or exclusions only → a projector; anything else (paths, operators, expressions) → undefined. */
function directProjector(base: Document, kind: 'inclusion' | 'exclusion' | undefined): ((document: Document) => Document) | undefined {
  const named = new Set<string>();
  for (const [field, value] of Object.entries(base)) {
    if (field.includes('.') || field.startsWith('$') || plainKind(value) === undefined) return undefined;
    if (field !== '_id') named.add(field);
  }
  const id = plainKind(base._id);
  // A field other than _id: named ones kept (inclusion) or dropped (exclusion); with only _id named, `{ _id: 0 }`
  // keeps every other field and `{ _id: 1 }` none.
  const keepsOther = (field: string) => (kind === 'inclusion' ? named.has(field) : kind === 'exclusion' ? !named.has(field) : id === false);
  return (document) => {
    const projected: Document = {};
    for (const field in document) {
      const value = document[field];
      // mingo never returned a field holding undefined; neither does this.
      if (value === undefined) continue;
      if (field === '_id' ? id !== false : keepsOther(field)) projected[field] = value;
    }
    return projected;
  };
}

function isPlainObject(value: unknown): value is Document {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function operatorOf(value: unknown): string | undefined {
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0]?.startsWith('$') ? keys[0] : undefined;
}

/** true: inclusion, false: exclusion, undefined: neither (a literal or an expression computes a field). */
function plainKind(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  return undefined;
}

export function compileProjection(projection: Document): CompiledProjection {
  const base: Document = {};
  const slices: Array<[string, unknown]> = [];
  const elemMatches: Array<[string, Query]> = [];
  let kind: 'inclusion' | 'exclusion' | undefined;
  const decide = (field: string, inclusion: boolean) => {
    if (kind === 'inclusion' && !inclusion) {
      throw new CommandError('Location31254', `Cannot do exclusion on field ${field} in inclusion projection`);
    }
    if (kind === 'exclusion' && inclusion) {
      throw new CommandError('Location31253', `Cannot do inclusion on field ${field} in exclusion projection`);
    }
    kind = inclusion ? 'inclusion' : 'exclusion';
  };
  for (const [field, value] of Object.entries(projection)) {
    const operator = operatorOf(value);
    if (operator === '$slice') {
      slices.push([field, (value as Document).$slice]);
      continue;
    }
    if (operator === '$elemMatch') {
      if (field.includes('.')) throw new CommandError('BadValue', `Cannot use $elemMatch projection on a nested field.`);
      decide(field, true);
      elemMatches.push([field, new Query({ v: { $elemMatch: (value as Document).$elemMatch } }, MINGO_QUERY_COMPUTE_OPTIONS)]);
      continue;
    }
    const plain = plainKind(value);
    if (field !== '_id' && plain !== undefined) decide(field, plain);
    else if (field !== '_id' && !field.endsWith('.$')) kind ??= 'inclusion';
    else if (field.endsWith('.$')) decide(field, true);
    base[field] = value;
  }
  // An exclusion keeps _id anyway; mingo would take `_id: 1` for an inclusion and refuse the mix.
  if (kind === 'exclusion' && plainKind(base._id) === true) delete base._id;
  // $slice on a field an inclusion projection does not name still returns it (sliced).
  if (kind === 'inclusion') for (const [field] of [...slices, ...elemMatches]) base[field] ??= 1;
  const hasBase = Object.keys(base).length > 0;
  const direct = hasBase && slices.length === 0 && elemMatches.length === 0 ? directProjector(base, kind) : undefined;
  return {
    base: hasBase ? base : undefined,
    ...(direct ? { direct } : {}),
    apply(projected) {
      if (slices.length === 0 && elemMatches.length === 0) return projected;
      let result = projected;
      for (const [field, spec] of slices) result = sliceAt(result, field.split('.'), spec);
      for (const [field, query] of elemMatches) {
        const { [field]: array, ...rest } = result;
        const match = Array.isArray(array) ? array.find((element) => query.test({ v: [element] })) : undefined;
        // MongoDB 4.4+: the $elemMatch field comes after the other included fields.
        result = match === undefined ? rest : { ...rest, [field]: [match] };
      }
      return result;
    },
  };
}

function sliceArray(array: unknown[], spec: unknown): unknown[] {
  if (typeof spec === 'number') return spec >= 0 ? array.slice(0, spec) : array.slice(Math.max(0, array.length + spec));
  if (Array.isArray(spec) && spec.length === 2 && typeof spec[0] === 'number' && typeof spec[1] === 'number') {
    const [skip, limit] = spec as [number, number];
    if (limit <= 0) throw new CommandError('BadValue', `$slice limit must be positive`);
    const start = skip >= 0 ? Math.min(skip, array.length) : Math.max(0, array.length + skip);
    return array.slice(start, start + limit);
  }
  throw new CommandError('BadValue', '$slice only supports numbers and [skip, limit] arrays');
}

/** A copy of `document` with the array at `path` sliced (through embedded documents, not arrays). */
function sliceAt(document: Document, path: string[], spec: unknown): Document {
  const [head, ...rest] = path as [string, ...string[]];
  if (!Object.hasOwn(document, head)) return document;
  const value = document[head];
  if (rest.length === 0) return Array.isArray(value) ? { ...document, [head]: sliceArray(value, spec) } : document;
  if (isPlainObject(value)) return { ...document, [head]: sliceAt(value, rest, spec) };
  if (Array.isArray(value)) return { ...document, [head]: value.map((item) => (isPlainObject(item) ? sliceAt(item, rest, spec) : item)) };
  return document;
}

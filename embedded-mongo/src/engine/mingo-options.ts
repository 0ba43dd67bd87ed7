// The options and operators every mingo call gets. mingo's own entry point merges its built-in operators
// over any we pass, so the engine uses mingo's base classes with this context, where ours win: `$type` by
// BSON type (aliases, numeric codes, arrays of types), `$all` as MongoDB defines it (an `$and` of
// equalities, so a single value matches), BSON-aware equality and ordering for BinData, and DBRef fields
// (`$ref`/`$id`/`$db`) inside `$elemMatch`. Server-side JavaScript stays off (scriptEnabled: false).
import type { Document } from 'bson';
import { Context } from 'mingo/core';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import * as windowOperators from 'mingo/operators/window';
import { Query } from 'mingo/query';
import { resolve } from 'mingo/util';
import { CommandError } from './command-error.js';
import { valueKey } from './value-key.js';

type Predicate = (document: Document) => boolean;
/** mingo's query operator shape: compiled once per query, then a predicate per document. */
type QueryOperator = (selector: string, value: unknown, options: unknown) => Predicate;

const TYPE_CODES: Record<string, number> = {
  double: 1,
  string: 2,
  object: 3,
  array: 4,
  binData: 5,
  undefined: 6,
  objectId: 7,
  bool: 8,
  date: 9,
  null: 10,
  regex: 11,
  dbPointer: 12,
  javascript: 13,
  symbol: 14,
  javascriptWithScope: 15,
  int: 16,
  timestamp: 17,
  long: 18,
  decimal: 19,
  minKey: -1,
  maxKey: 127,
};
const NUMBER_CODES = new Set([1, 16, 18, 19]);
const BSON_TYPE_CODES: Record<string, number> = {
  Binary: 5,
  ObjectId: 7,
  BSONRegExp: 11,
  Code: 13,
  BSONSymbol: 14,
  Int32: 16,
  Timestamp: 17,
  Long: 18,
  Double: 1,
  Decimal128: 19,
  MinKey: -1,
  MaxKey: 127,
  // A DBRef is an embedded document by convention.
  DBRef: 3,
};

function bsonType(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? (value as { _bsontype?: string })._bsontype : undefined;
}

/** The BSON type code MongoDB would store `value` as (numbers as the driver sends them: int32 when whole). */
export function typeCode(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (value === null) return 10;
  switch (typeof value) {
    case 'string':
      return 2;
    case 'boolean':
      return 8;
    case 'number':
      if (!Number.isInteger(value)) return 1;
      return value >= -(2 ** 31) && value < 2 ** 31 ? 16 : Number.isSafeInteger(value) ? 18 : 1;
    case 'bigint':
      return 18;
  }
  if (Array.isArray(value)) return 4;
  if (value instanceof Date) return 9;
  if (value instanceof RegExp) return 11;
  const special = bsonType(value);
  if (special) return BSON_TYPE_CODES[special] ?? 3;
  return 3;
}

function typeMatcher(spec: unknown): (code: number) => boolean {
  const one = (type: unknown): ((code: number) => boolean) => {
    if (type === 'number') return (code) => NUMBER_CODES.has(code);
    if (typeof type === 'string') {
      const code = TYPE_CODES[type];
      if (code === undefined) throw new CommandError('BadValue', `Unknown type name alias: ${type}`);
      return (actual) => actual === code;
    }
    if (typeof type === 'number') {
      if (!Number.isInteger(type) || !Object.values(TYPE_CODES).includes(type)) {
        throw new CommandError('BadValue', `Invalid numerical type code: ${type}`);
      }
      return (actual) => actual === type;
    }
    throw new CommandError('TypeMismatch', 'type must be represented as a number or a string');
  };
  if (Array.isArray(spec)) {
    const matchers = spec.map(one);
    return (code) => matchers.some((matches) => matches(code));
  }
  return one(spec);
}

/** The values a path names, as MongoDB's matcher sees them: the value itself and, for an array, its elements. */
function candidates(document: Document, selector: string): unknown[] {
  const value = resolve(document, selector, { unwrapArray: true });
  return Array.isArray(value) ? [value, ...value] : [value];
}

const $type: QueryOperator = (selector, spec, _options) => {
  const matches = typeMatcher(spec);
  return (document: Document) =>
    candidates(document, selector).some((value) => {
      const code = typeCode(value);
      return code !== undefined && matches(code);
    });
};

const $all: QueryOperator = (selector, values, options) => {
  if (!Array.isArray(values)) throw new CommandError('BadValue', '$all needs an array');
  if (values.length === 0) return () => false;
  const clauses = values.map((value) => new Query({ [selector]: value }, options as never));
  return (document: Document) => clauses.every((clause) => clause.test(document));
};

/** Values mingo's equality cannot tell apart (it ignores BinData's subtype and bytes). */
function needsBsonEquality(value: unknown): boolean {
  const special = bsonType(value);
  return special !== undefined && special !== 'ObjectId';
}

function bsonEquals(value: unknown): (candidate: unknown) => boolean {
  const key = valueKey(value);
  return (candidate) => valueKey(candidate) === key;
}

const base = queryOperators as unknown as Record<string, QueryOperator>;

const $eq: QueryOperator = (selector, value, options) => {
  if (!needsBsonEquality(value)) return (base.$eq as QueryOperator)(selector, value, options);
  const equals = bsonEquals(value);
  return (document: Document) => candidates(document, selector).some(equals);
};

const $ne: QueryOperator = (selector, value, options) => {
  const eq = $eq(selector, value, options) as Predicate;
  return (document: Document) => !eq(document);
};

const $in: QueryOperator = (selector, values, options) => {
  if (!Array.isArray(values) || !values.some(needsBsonEquality)) return (base.$in as QueryOperator)(selector, values, options);
  const tests = values.map((value) => $eq(selector, value, options) as Predicate);
  return (document: Document) => tests.some((test) => test(document));
};

const $nin: QueryOperator = (selector, values, options) => {
  const inside = $in(selector, values, options) as Predicate;
  return (document: Document) => !inside(document);
};

/** MongoDB orders BinData by length, then subtype, then bytes. */
function compareBinary(a: unknown, b: unknown): number {
  const left = a as { buffer: Uint8Array; sub_type: number; position: number };
  const right = b as { buffer: Uint8Array; sub_type: number; position: number };
  const leftBytes = left.buffer.subarray(0, left.position);
  const rightBytes = right.buffer.subarray(0, right.position);
  if (leftBytes.length !== rightBytes.length) return leftBytes.length - rightBytes.length;
  if (left.sub_type !== right.sub_type) return left.sub_type - right.sub_type;
  return Buffer.compare(Buffer.from(leftBytes), Buffer.from(rightBytes));
}

function binaryComparison(name: '$gt' | '$gte' | '$lt' | '$lte', accept: (order: number) => boolean): QueryOperator {
  return (selector, value, options) => {
    if (bsonType(value) !== 'Binary') return (base[name] as QueryOperator)(selector, value, options);
    return (document: Document) =>
      candidates(document, selector).some((candidate) => bsonType(candidate) === 'Binary' && accept(compareBinary(candidate, value)));
  };
}

const DBREF_FIELDS = new Set(['$ref', '$id', '$db']);

/** `$elemMatch: { $id: ... }` reads DBRef fields, which mingo would take for unknown operators. */
const $elemMatch: QueryOperator = (selector, rawCriteria, options) => {
  // `{ $ref, $id }` arrives deserialised as a DBRef.
  const criteria = bsonType(rawCriteria) === 'DBRef' ? dbRefAsQuery(rawCriteria) : rawCriteria;
  const keys = isPlainObject(criteria) ? Object.keys(criteria) : [];
  if (!keys.some((key) => DBREF_FIELDS.has(key))) return (base.$elemMatch as QueryOperator)(selector, criteria, options);
  const renamed = Object.fromEntries(Object.entries(criteria as Document).map(([key, value]) => [dbRefField(key), value]));
  const query = new Query(renamed, options as never);
  const test = (element: unknown) => {
    const plain = asDbRefDocument(element);
    return plain !== undefined && query.test(plain);
  };
  return (document: Document) => {
    const value = resolve(document, selector, { unwrapArray: true });
    return Array.isArray(value) && value.some(test);
  };
};

function dbRefAsQuery(value: unknown): Document {
  const ref = value as { collection: string; oid: unknown; db?: string; fields?: Document };
  return { $ref: ref.collection, $id: ref.oid, ...(ref.db ? { $db: ref.db } : {}), ...ref.fields };
}

function dbRefField(key: string): string {
  return DBREF_FIELDS.has(key) ? `__dbref_${key.slice(1)}` : key;
}

function asDbRefDocument(element: unknown): Document | undefined {
  if (bsonType(element) === 'DBRef') {
    const ref = element as { collection: string; oid: unknown; db?: string; fields?: Document };
    return { ...ref.fields, __dbref_ref: ref.collection, __dbref_id: ref.oid, __dbref_db: ref.db };
  }
  if (!isPlainObject(element)) return undefined;
  return Object.fromEntries(Object.entries(element).map(([key, value]) => [dbRefField(key), value]));
}

function isPlainObject(value: unknown): value is Document {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

export const MINGO_CONTEXT = Context.init({
  accumulator: accumulatorOperators,
  expression: expressionOperators,
  pipeline: pipelineOperators,
  projection: projectionOperators,
  query: {
    ...queryOperators,
    $type,
    $all,
    $eq,
    $ne,
    $in,
    $nin,
    $gt: binaryComparison('$gt', (order) => order > 0),
    $gte: binaryComparison('$gte', (order) => order >= 0),
    $lt: binaryComparison('$lt', (order) => order < 0),
    $lte: binaryComparison('$lte', (order) => order <= 0),
    $elemMatch,
  },
  window: windowOperators,
} as never);

/** Every options object the engine hands mingo: `$where`, `$function` and `$accumulator` never run. */
export const MINGO_QUERY_OPTIONS = Object.freeze({ idKey: '_id', scriptEnabled: false, context: MINGO_CONTEXT });

/**
 * The same options as mingo's own options object (its `ComputeOptions`), for `new Query` only. A Query given a plain
 * options object copies every operator table into a new context (about 20 µs a query, most of a small query's cost);
 * given one of these it shares the context. mingo does not export the class, but a query operator receives an
 * instance, so one probe query hands it over. Not for the updater or the aggregator: they spread their options.
 */
export const MINGO_QUERY_COMPUTE_OPTIONS: typeof MINGO_QUERY_OPTIONS = computeOptionsOf(MINGO_QUERY_OPTIONS);

function computeOptionsOf(options: typeof MINGO_QUERY_OPTIONS): typeof MINGO_QUERY_OPTIONS {
  let received: unknown;
  const probe = Context.init({
    query: {
      $probe: (_selector: string, _value: unknown, computeOptions: unknown) => {
        received = computeOptions;
        return () => false;
      },
    },
  } as never);
  new Query({ probe: { $probe: 1 } }, { ...options, context: probe } as never);
  const ComputeOptions = (received as { constructor?: { init?: (options: unknown) => unknown } } | undefined)?.constructor;
  // A later mingo that no longer hands it over: plain options, as before (correct, only slower).
  if (typeof ComputeOptions?.init !== 'function') return options;
  return ComputeOptions.init(options) as typeof MINGO_QUERY_OPTIONS;
}

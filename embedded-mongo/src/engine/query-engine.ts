// Reads through mingo, with Map lookups for `_id` equality and `_id: { $in }`, the lookups that dominate app traffic.
import { type Document, ObjectId } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import { ProcessingMode } from 'mingo/core';
import { Query } from 'mingo/query';
import { cloneDeep } from 'mingo/util';
import type { CollectionStore } from './collection-store.js';
import { toCommandError } from './command-error.js';
import { MINGO_QUERY_COMPUTE_OPTIONS, MINGO_QUERY_OPTIONS } from './mingo-options.js';
import { compileProjection } from './projection.js';
import { refuseScriptsInFilter, refuseScriptsInPipeline } from './server-script.js';

export interface ReadOptions {
  sort?: Document;
  skip?: number;
  limit?: number;
  projection?: Document;
  collation?: Document;
}

const BASE_OPTIONS = MINGO_QUERY_OPTIONS;

/** For `new Query`: the shared options unless a collation asks for its own. */
function queryOptions(collation?: Document) {
  return collation ? { ...BASE_OPTIONS, collation: collation as never } : MINGO_QUERY_COMPUTE_OPTIONS;
}

function mingoOptions(collation?: Document) {
  return collation ? { ...BASE_OPTIONS, collation: collation as never } : BASE_OPTIONS;
}

function isOperatorObject(value: unknown): value is Document {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  const first = Object.keys(value)[0];
  return first?.startsWith('$') ?? false;
}

/** `{ _id: v }` or `{ _id: { $eq: v } }` (plus any other conditions) → v; anything else → undefined. */
function idEquality(filter: Document): { id: unknown; rest: Document } | undefined {
  if (!Object.hasOwn(filter, '_id')) return undefined;
  const { _id: condition, ...rest } = filter;
  if (condition instanceof RegExp || Array.isArray(condition)) return undefined;
  if (isOperatorObject(condition)) {
    const keys = Object.keys(condition);
    if (keys.length !== 1 || keys[0] !== '$eq' || isOperatorObject(condition.$eq) || condition.$eq instanceof RegExp) return undefined;
    return { id: condition.$eq, rest };
  }
  return { id: condition, rest };
}

/** The order MongoDB's _id index keeps ids of one type in: ObjectIds and strings by their bytes, numbers by value. */
function idOrder(ids: unknown[]): ((left: unknown, right: unknown) => number) | undefined {
  if (ids.every((id) => id instanceof ObjectId)) {
    return (left, right) => Buffer.compare((left as ObjectId).id, (right as ObjectId).id);
  }
  if (ids.every((id) => typeof id === 'string')) {
    return (left, right) => Buffer.compare(Buffer.from(left as string), Buffer.from(right as string));
  }
  if (ids.every((id) => typeof id === 'number' && Number.isFinite(id))) return (left, right) => (left as number) - (right as number);
  return undefined;
}

/**
 * `{ _id: { $in: [...] } }` (plus any other conditions) over ids of one plain type → the documents by Map lookup, in
 * _id order as MongoDB's index scan gives them; anything else → undefined (a scan). Without it a read of a page of
 * ids (search hits, a user's sites) went through every document of the collection.
 */
function idsLookup(
  collection: CollectionStore,
  filter: Document,
  options: ReadOptions,
): { source: Document[]; rest: Document } | undefined {
  if (!Object.hasOwn(filter, '_id') || options.collation) return undefined;
  if (options.sort && Object.hasOwn(options.sort, '$natural')) return undefined;
  const { _id: condition, ...rest } = filter;
  if (!isOperatorObject(condition)) return undefined;
  const keys = Object.keys(condition);
  const ids = condition.$in;
  if (keys.length !== 1 || !Array.isArray(ids)) return undefined;
  const order = idOrder(ids);
  if (!order) return undefined;
  const seen = new Set<Document>();
  for (const id of [...ids].sort(order)) {
    const document = collection.findById(id);
    if (document) seen.add(document);
  }
  return { source: [...seen], rest };
}

/** The documents matching `filter`, in natural order unless sorted; references, not copies. */
export function selectDocuments(collection: CollectionStore | undefined, filter: Document, options: ReadOptions = {}): Document[] {
  refuseScriptsInFilter(filter);
  const projection = options.projection && Object.keys(options.projection).length ? options.projection : undefined;
  if (projection) refuseScriptsInPipeline(projection);
  const compiled = projection ? compileProjection(projection) : undefined;
  if (!collection) return [];
  const byId = idEquality(filter);
  const byIds = byId ? undefined : idsLookup(collection, filter, options);
  let source: Document[];
  let criteria = filter;
  if (byId) {
    const document = collection.findById(byId.id);
    source = document ? [document] : [];
    criteria = byId.rest;
  } else if (byIds) {
    source = byIds.source;
    criteria = byIds.rest;
  } else {
    // A collation can make unequal strings equal, which index keys do not.
    source = (options.collation ? undefined : collection.candidates(filter)) ?? [...collection.documents.values()];
  }
  // { $natural: ±1 } is storage order, which for us is insertion order.
  let sort = options.sort && Object.keys(options.sort).length ? options.sort : undefined;
  if (sort && Object.keys(sort).length === 1 && typeof sort.$natural === 'number') {
    // `source` is always a fresh array here, so reversing it in place is safe.
    if (sort.$natural < 0) source.reverse();
    sort = undefined;
  }
  // A projection of top-level fields only is applied here, after mingo's filter, sort, skip and limit.
  const direct = compiled?.direct;
  // Unfiltered, unsorted reads (findOne by _id above all) skip mingo's per-call setup.
  if (!sort && (!compiled || direct) && Object.keys(criteria).length === 0) {
    const start = options.skip ?? 0;
    const page = options.limit ? source.slice(start, start + options.limit) : start ? source.slice(start) : source;
    return direct ? page.map((document) => idFirst(direct(document))) : page;
  }
  try {
    const cursor = new Query(criteria, queryOptions(options.collation)).find(source, direct ? undefined : compiled?.base);
    if (sort) cursor.sort(sort as never);
    if (options.skip) cursor.skip(options.skip);
    if (options.limit) cursor.limit(options.limit);
    const documents = cursor.all() as Document[];
    if (direct) return documents.map((document) => idFirst(direct(document)));
    return compiled ? documents.map((document) => idFirst(compiled.apply(document))) : documents;
  } catch (error) {
    throw toCommandError(error);
  }
}

/** Applies a find-style projection to one document. */
export function projectDocument(document: Document, projection: Document): Document {
  if (Object.keys(projection).length === 0) return document;
  refuseScriptsInPipeline(projection);
  try {
    const compiled = compileProjection(projection);
    if (compiled.direct) return idFirst(compiled.direct(document));
    const projected = compiled.base
      ? (new Query({}, MINGO_QUERY_COMPUTE_OPTIONS).find([document], compiled.base).all()[0] as Document)
      : document;
    return idFirst(compiled.apply(projected));
  } catch (error) {
    throw toCommandError(error);
  }
}

/** A reusable predicate for one filter (compiling a mingo Query per document would be wasteful). */
export function compileFilter(filter: Document): (document: Document) => boolean {
  refuseScriptsInFilter(filter);
  if (Object.keys(filter).length === 0) return () => true;
  try {
    const query = new Query(filter, MINGO_QUERY_COMPUTE_OPTIONS);
    return (document) => query.test(document);
  } catch (error) {
    throw toCommandError(error);
  }
}

/** Runs a pipeline over copies, so stages that write fields cannot touch stored documents. */
export function aggregateDocuments(
  source: Document[],
  pipeline: Document[],
  resolveCollection: (name: string) => Document[],
  collation?: Document,
): Document[] {
  refuseScriptsInPipeline(pipeline);
  try {
    let stages = pipeline;
    let input = source;
    // A leading $match filters by reference first, so only the survivors are copied.
    const first = pipeline[0];
    if (first && Object.keys(first)[0] === '$match') {
      const test = compileFilter(first.$match as Document);
      input = source.filter(test);
      stages = pipeline.slice(1);
    }
    if (stages.length === 0) return input;
    const aggregator = new Aggregator(stages, {
      ...mingoOptions(collation),
      processingMode: ProcessingMode.CLONE_INPUT,
      collectionResolver: (name: string) => resolveCollection(name).map((document) => cloneDeep(document) as Document),
    });
    return aggregator.run(input) as Document[];
  } catch (error) {
    throw toCommandError(error);
  }
}

/** MongoDB always returns `_id` first; mingo's projection appends it last. */
export function idFirst(document: Document): Document {
  if (!Object.hasOwn(document, '_id') || Object.keys(document)[0] === '_id') return document;
  const { _id, ...rest } = document;
  return { _id, ...rest };
}

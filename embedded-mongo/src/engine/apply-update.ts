// Update semantics over mingo: replacement, operators (adding $setOnInsert), pipelines, upsert seeds.
import { type Document, ObjectId } from 'bson';
import { Context } from 'mingo/core';
import { Query } from 'mingo/query';
import { update as mingoUpdate, updateOne as mingoUpdateOne } from 'mingo/updater';
import { cloneDeep, setValue } from 'mingo/util';
import { rewriteBinarySets } from './binary-set.js';
import { CommandError, toCommandError } from './command-error.js';
import {
  applyDollarWrites,
  collectDollarWrite,
  type DollarFieldWrites,
  dollarPrefixedFieldError,
  isDollarPrefixedPath,
} from './dollar-fields.js';
import { idFirst } from './query-engine.js';
import { MINGO_QUERY_COMPUTE_OPTIONS, MINGO_QUERY_OPTIONS } from './mingo-options.js';
import { refuseScriptsInPipeline } from './server-script.js';
import { applyTopLevelUpdate } from './top-level-update.js';
import { assertCreatable, assertNoConflicts, concretePaths, type PositionalContext, valueAtPath } from './update-paths.js';
import { valueKey } from './value-key.js';

export interface UpdateSpec {
  filter: Document;
  update: Document | Document[];
  arrayFilters?: Document[];
}

const OPERATORS = new Set([
  '$set',
  '$unset',
  '$inc',
  '$mul',
  '$min',
  '$max',
  '$rename',
  '$currentDate',
  '$setOnInsert',
  '$push',
  '$pull',
  '$pullAll',
  '$addToSet',
  '$pop',
  '$bit',
]);
const MINGO_OPTIONS = { queryOptions: MINGO_QUERY_OPTIONS };
/**
 * For update operators with no condition (the engine resolves positional paths and `$pull` itself): an empty context,
 * to which mingo's updater adds the operators it uses. Our operator tables would only be copied for nothing (about
 * 45 µs an update).
 */
const OPERATOR_UPDATE_OPTIONS = { queryOptions: { ...MINGO_QUERY_OPTIONS, context: Context.init({}) } };

export function isOperatorUpdate(update: Document | Document[]): boolean {
  return !Array.isArray(update) && (Object.keys(update)[0] ?? '').startsWith('$');
}

/**
 * Returns the new version of `original` (which is left untouched). `inserting` marks the document
 * an upsert is about to create: only then does $setOnInsert apply.
 */
export function applyUpdate(original: Document, spec: UpdateSpec, inserting: boolean): Document {
  const { update } = spec;
  let result: Document;
  if (Array.isArray(update)) result = applyPipeline(original, update);
  else if (isOperatorUpdate(update)) result = applyOperators(original, update, spec, inserting);
  else result = applyReplacement(original, update);
  if (!inserting && valueKey(result._id) !== valueKey(original._id)) {
    throw new CommandError('ImmutableField', "Performing an update on the path '_id' would modify the immutable field '_id'");
  }
  if (result._id === undefined) result._id = original._id ?? new ObjectId();
  return idFirst(result);
}

function applyReplacement(original: Document, replacement: Document): Document {
  for (const key of Object.keys(replacement)) if (key.startsWith('$')) throw dollarPrefixedFieldError(key);
  const result = cloneDeep(replacement) as Document;
  if (result._id === undefined && original._id !== undefined) return { _id: original._id, ...result };
  return result;
}

function applyPipeline(original: Document, pipeline: Document[]): Document {
  refuseScriptsInPipeline(pipeline);
  const documents = [cloneDeep(original) as Document];
  try {
    mingoUpdateOne(documents, {}, pipeline as never, {}, MINGO_OPTIONS.queryOptions);
  } catch (error) {
    throw toCommandError(error);
  }
  return documents[0] as Document;
}

// Operators whose paths may create fields (mongod refuses creating one inside an array or a scalar).
const CREATING = new Set(['$set', '$setOnInsert', '$inc', '$mul', '$min', '$max', '$push', '$addToSet', '$currentDate', '$bit']);
const IDENTIFIER_PART = /^\$\[([a-z][a-zA-Z0-9]*)\]$/;

function applyOperators(original: Document, update: Document, spec: UpdateSpec, inserting: boolean): Document {
  for (const [operator, fields] of Object.entries(update)) {
    if (!OPERATORS.has(operator)) {
      throw new CommandError(
        'FailedToParse',
        `Unknown modifier: ${operator}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    }
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
      throw new CommandError('FailedToParse', `Modifiers operate on fields but we found type ${typeName(fields)} instead.`);
    }
  }
  // Parse-time rules, on the paths as written: conflicts across every operator ($setOnInsert too) and arrayFilters.
  const written = Object.entries(update).flatMap(([operator, fields]) =>
    Object.entries(fields as Document).flatMap(([path, value]) =>
      operator === '$rename' && typeof value === 'string' ? [path, value] : [path],
    ),
  );
  assertNoConflicts(written);
  assertArrayFiltersUsed(written, spec.arrayFilters ?? []);

  // Positional paths resolve once, against the document as it was, into concrete indexes.
  const result = cloneDeep(original) as Document;
  const context: PositionalContext = { filter: spec.filter, arrayFilters: spec.arrayFilters ?? [], usedIdentifiers: new Set() };
  const modifier: Document = {};
  const pulls: Array<{ operator: string; path: string; condition: unknown }> = [];
  const dollarWrites: DollarFieldWrites = { sets: [], unsets: [] };
  for (const [operator, fields] of Object.entries(update)) {
    // $setOnInsert applies only when the upsert inserts; otherwise it is parsed (above) and ignored.
    if (operator === '$setOnInsert' && !inserting) continue;
    const target = operator === '$setOnInsert' ? '$set' : operator;
    for (const [path, value] of Object.entries(fields as Document)) {
      if (isDollarPrefixedPath(path)) {
        collectDollarWrite(dollarWrites, operator, path, value, inserting);
        continue;
      }
      const paths = operator === '$rename' ? [path] : concretePaths(result, path, context);
      for (const concrete of paths) {
        if (CREATING.has(operator)) assertCreatable(result, concrete);
        if (operator === '$pull' || operator === '$pullAll') {
          pulls.push({ operator, path: concrete, condition: value });
          continue;
        }
        if (operator === '$push' || operator === '$addToSet') assertArrayTarget(operator, result, concrete);
        modifier[target] = { ...(modifier[target] as Document | undefined), [concrete]: value };
      }
    }
  }
  // Distinct positional paths can still land on one element ($[] and $[id] at one level).
  assertNoConflicts(
    [...Object.values(modifier).flatMap((fields) => Object.keys(fields as Document)), ...pulls.map((pull) => pull.path)],
    (_path, at) => `Update created a conflict at '${at}'`,
  );
  keepOrSetId(result, modifier);

  assertNumericTargets(result, modifier);
  createPushTargets(result, modifier.$push as Document | undefined);
  const pullMatchers = pulls.map((pull) => ({ ...pull, matches: pullMatcher(pull.operator, pull.condition) }));
  if (Object.keys(modifier).length) {
    try {
      if (!applyTopLevelUpdate(result, modifier)) mingoUpdate(result, modifier, [], undefined, OPERATOR_UPDATE_OPTIONS);
    } catch (error) {
      const message = (error as Error).message;
      if (/immutable field/.test(message)) throw new CommandError('ImmutableField', message);
      if (/would create a conflict/.test(message)) throw new CommandError('ConflictingUpdateOperators', message);
      throw toCommandError(error);
    }
    rewriteBinarySets(result, modifier.$set as Document | undefined);
  }
  for (const pull of pullMatchers) applyPull(result, pull.path, pull.matches);
  applyDollarWrites(result, dollarWrites);
  return result;
}

/** `$set` of `_id` to the value it has is a no-op (mongoose sends it); to another value, error 66. */
function keepOrSetId(document: Document, modifier: Document): void {
  const set = modifier.$set as Document | undefined;
  if (!set || !Object.hasOwn(set, '_id')) return;
  const { _id: id, ...rest } = set;
  if (document._id !== undefined && valueKey(id) !== valueKey(document._id)) {
    throw new CommandError('ImmutableField', "Performing an update on the path '_id' would modify the immutable field '_id'");
  }
  if (document._id === undefined) document._id = cloneDeep(id);
  if (Object.keys(rest).length) modifier.$set = rest;
  else delete modifier.$set;
}

function assertArrayFiltersUsed(paths: string[], arrayFilters: Document[]): void {
  const used = new Set(paths.flatMap((path) => path.split('.').flatMap((part) => IDENTIFIER_PART.exec(part)?.[1] ?? [])));
  const defined = new Set(arrayFilters.flatMap((filter) => Object.keys(filter).map((key) => key.split('.')[0] as string)));
  for (const identifier of used) {
    if (!defined.has(identifier)) {
      const path = paths.find((candidate) => candidate.includes(`$[${identifier}]`));
      throw new CommandError('BadValue', `No array filter found for identifier '${identifier}' in path '${path}'`);
    }
  }
  for (const identifier of defined) {
    if (!used.has(identifier))
      throw new CommandError('FailedToParse', `The array filter for identifier '${identifier}' was not used in the update`);
  }
}

// mingo skips $push/$addToSet on a non-array silently; mongod refuses the update.
function assertArrayTarget(operator: string, document: Document, path: string): void {
  const current = valueAtPath(document, path);
  if (current === undefined || Array.isArray(current)) return;
  if (operator === '$push') {
    throw new CommandError(
      'BadValue',
      `The field '${path}' must be an array but is of type ${typeName(current)} in document {_id: ${String(document._id)}}`,
    );
  }
  throw new CommandError(
    'BadValue',
    `Cannot apply $addToSet to non-array field. Field named '${path.split('.').at(-1)}' has non-array type ${typeName(current)}`,
  );
}

const DOCUMENT_QUERY_OPERATORS = new Set(['$and', '$or', '$nor', '$expr', '$comment', '$jsonSchema']);

/**
 * mongod's three $pull matchers: a condition that reads as a query on documents ($or/$and/$nor, or field
 * names) matches embedded documents; one of operators ($gt, $in, $elemMatch...) or a regex matches the
 * element as a value; anything else matches elements equal to it (a whole array only equal to an array).
 */
function pullMatcher(operator: string, condition: unknown): (element: unknown) => boolean {
  if (operator === '$pullAll') {
    if (!Array.isArray(condition)) {
      throw new CommandError('BadValue', `$pullAll requires an array argument but was given a ${typeName(condition)}`);
    }
    const keys = new Set(condition.map(valueKey));
    return (element) => keys.has(valueKey(element));
  }
  try {
    if (condition instanceof RegExp) {
      const query = new Query({ v: condition }, MINGO_QUERY_COMPUTE_OPTIONS);
      return (element) => query.test({ v: element });
    }
    if (isPlainObject(condition)) {
      const first = Object.keys(condition)[0] ?? '';
      if (!first.startsWith('$') || DOCUMENT_QUERY_OPERATORS.has(first)) {
        const query = new Query(condition, MINGO_QUERY_COMPUTE_OPTIONS);
        return (element) => isPlainObject(element) && query.test(element);
      }
      const query = new Query({ v: condition }, MINGO_QUERY_COMPUTE_OPTIONS);
      return (element) => query.test({ v: element });
    }
  } catch (error) {
    throw toCommandError(error);
  }
  const key = valueKey(condition);
  return (element) => valueKey(element) === key;
}

function applyPull(document: Document, path: string, matches: (element: unknown) => boolean): void {
  const current = valueAtPath(document, path);
  if (current === undefined) return;
  if (!Array.isArray(current)) throw new CommandError('BadValue', 'Cannot apply $pull to a non-array value');
  const kept = current.filter((element) => !matches(element));
  if (kept.length === current.length) return;
  const parts = path.split('.');
  const last = parts.pop() as string;
  const parent = parts.length ? valueAtPath(document, parts.join('.')) : document;
  if (Array.isArray(parent)) parent[Number(last)] = kept;
  else (parent as Document)[last] = kept;
}

function isPlainObject(value: unknown): value is Document {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** MongoDB's name for a value's BSON type, as its error messages spell it. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 2 ** 31 ? 'int' : 'double';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'date';
  if (value instanceof ObjectId) return 'objectId';
  if (value instanceof RegExp) return 'regex';
  return isPlainObject(value) ? 'object' : ((value as { _bsontype?: string })._bsontype ?? 'object');
}

// mingo silently skips $inc/$mul on a non-number; MongoDB refuses the update.
function assertNumericTargets(document: Document, modifier: Document): void {
  for (const operator of ['$inc', '$mul']) {
    for (const [path, amount] of Object.entries((modifier[operator] ?? {}) as Document)) {
      if (typeof amount !== 'number')
        throw new CommandError('TypeMismatch', `Cannot ${operator.slice(1)} with non-numeric argument: {${path}: ${String(amount)}}`);
      const current = valueAtPath(document, path);
      if (current !== undefined && typeof current !== 'number') {
        throw new CommandError(
          'TypeMismatch',
          `Cannot apply ${operator} to a value of non-numeric type. {_id: ${String(document._id)}} has the field '${path}' of non-numeric type ${typeName(current)}`,
        );
      }
    }
  }
}

// mingo ignores $slice/$sort/$position when $push creates the array; MongoDB applies them.
function createPushTargets(document: Document, push: Document | undefined): void {
  if (!push) return;
  for (const [path, value] of Object.entries(push)) {
    const hasModifiers = typeof value === 'object' && value !== null && Object.hasOwn(value, '$each');
    if (hasModifiers && valueAtPath(document, path) === undefined) setValue(document, path, []);
  }
}

/** The document an upsert starts from: the filter's equality conditions (incl. inside $and). */
export function upsertSeed(filter: Document): Document {
  const seed: Document = {};
  addEqualities(filter, seed);
  return seed;
}

function addEqualities(filter: Document, seed: Document): void {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const clause of value) addEqualities(clause as Document, seed);
    } else if (key.startsWith('$') || value instanceof RegExp) {
      // Other logical operators and regexes do not pin a value.
    } else if (isOperatorObject(value)) {
      if (Object.hasOwn(value, '$eq')) setValue(seed, key, cloneDeep(value.$eq));
    } else {
      setValue(seed, key, cloneDeep(value));
    }
  }
}

function isOperatorObject(value: unknown): value is Document {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return (Object.keys(value)[0] ?? '').startsWith('$');
}

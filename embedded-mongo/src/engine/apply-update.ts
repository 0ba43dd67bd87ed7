// Update semantics over mingo: replacement, operators (adding $setOnInsert), pipelines, upsert seeds.
import { type Document, ObjectId } from 'bson';
import { update as mingoUpdate, updateOne as mingoUpdateOne } from 'mingo';
import { cloneDeep, resolve, setValue } from 'mingo/util';
import { CommandError, toCommandError } from './command-error.js';
import { idFirst } from './query-engine.js';
import { MINGO_QUERY_OPTIONS, refuseScriptsInPipeline } from './server-script.js';
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
  for (const key of Object.keys(replacement)) {
    if (key.startsWith('$')) {
      throw new CommandError(
        'BadValue',
        `The dollar ($) prefixed field '${key}' is not allowed in the context of an update's replacement document.`,
      );
    }
  }
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

function applyOperators(original: Document, update: Document, spec: UpdateSpec, inserting: boolean): Document {
  for (const operator of Object.keys(update)) {
    if (!OPERATORS.has(operator)) {
      throw new CommandError(
        'FailedToParse',
        `Unknown modifier: ${operator}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    }
  }
  const { $setOnInsert: onInsert, ...modifier } = update;
  if (inserting && onInsert && Object.keys(onInsert).length) {
    assertNoConflict(modifier, onInsert as Document);
    modifier.$set = { ...(modifier.$set as Document | undefined), ...(onInsert as Document) };
  }
  const result = cloneDeep(original) as Document;
  if (Object.keys(modifier).length === 0) return result;
  assertNumericTargets(result, modifier);
  createPushTargets(result, modifier.$push as Document | undefined);
  // mingo resolves the positional `$` against the filter; passing it otherwise re-runs the query needlessly.
  const positional = Object.values(modifier).some((fields) => Object.keys(fields as Document).some((path) => /(^|\.)\$(\.|$)/.test(path)));
  try {
    mingoUpdate(result, modifier, spec.arrayFilters ?? [], positional ? spec.filter : undefined, MINGO_OPTIONS);
  } catch (error) {
    const message = (error as Error).message;
    if (/immutable field/.test(message)) throw new CommandError('ImmutableField', message);
    throw toCommandError(error);
  }
  return result;
}

// mingo silently skips $inc/$mul on a non-number; MongoDB refuses the update.
function assertNumericTargets(document: Document, modifier: Document): void {
  for (const operator of ['$inc', '$mul']) {
    for (const [path, amount] of Object.entries((modifier[operator] ?? {}) as Document)) {
      if (typeof amount !== 'number')
        throw new CommandError('TypeMismatch', `Cannot ${operator.slice(1)} with non-numeric argument: {${path}: ${String(amount)}}`);
      const current = path.includes('$') ? undefined : resolve(document, path);
      if (current !== undefined && typeof current !== 'number') {
        const type = current === null ? 'null' : typeof current;
        throw new CommandError(
          'TypeMismatch',
          `Cannot apply ${operator} to a value of non-numeric type. {_id: ${String(document._id)}} has the field '${path}' of non-numeric type ${type}`,
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
    if (hasModifiers && !path.includes('$') && resolve(document, path) === undefined) setValue(document, path, []);
  }
}

function assertNoConflict(modifier: Document, onInsert: Document): void {
  const paths = Object.values(modifier).flatMap((fields) => Object.keys(fields as Document));
  for (const insertPath of Object.keys(onInsert)) {
    const clash = paths.find((path) => path === insertPath || path.startsWith(`${insertPath}.`) || insertPath.startsWith(`${path}.`));
    if (clash)
      throw new CommandError('ConflictingUpdateOperators', `Updating the path '${insertPath}' would create a conflict at '${clash}'`);
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

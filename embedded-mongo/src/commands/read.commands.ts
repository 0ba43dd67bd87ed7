// find, getMore, killCursors, count and distinct.
import type { Document } from 'bson';
import type { CollectionStore } from '../engine/collection-store.js';
import { CommandError } from '../engine/command-error.js';
import { valuesAtPath } from '../engine/index-spec.js';
import { selectDocuments } from '../engine/query-engine.js';
import { valueKey } from '../engine/value-key.js';
import { type CommandHandler, targetCollection } from './command-context.js';

function optionalNumber(command: Document, field: string): number | undefined {
  const value = command[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new CommandError('TypeMismatch', `BSON field '${field}' must be a number`);
  return value;
}

const find: CommandHandler = (command, context) => {
  const name = targetCollection(command);
  const limit = optionalNumber(command, 'limit') ?? 0;
  const skip = optionalNumber(command, 'skip') ?? 0;
  if (skip < 0) throw new CommandError('BadValue', 'skip must be >= 0');
  const collection = context.catalog.collection(context.dbName, name);
  const sort = command.sort as Document | undefined;
  // Without a sort, a hinted index decides the order: its key order, as mongod's index scan returns it.
  const hinted = command.hint === undefined ? undefined : hintOrder(collection, command.hint);
  const documents = selectDocuments(collection, (command.filter ?? {}) as Document, {
    sort: sort && Object.keys(sort).length ? sort : hinted,
    projection: command.projection as Document | undefined,
    skip,
    limit: Math.abs(limit),
    collation: command.collation as Document | undefined,
  });
  // A negative limit is the legacy spelling of "one batch, then close".
  const singleBatch = command.singleBatch === true || limit < 0;
  return context.cursors.open(`${context.dbName}.${name}`, documents, optionalNumber(command, 'batchSize'), singleBatch);
};

/** The sort a hint stands for (its index's key order); a hint naming no index is refused, as mongod's planner refuses it. */
export function hintOrder(collection: CollectionStore | undefined, hint: unknown): Document | undefined {
  if (!collection) return undefined;
  if (typeof hint === 'object' && hint !== null && !Array.isArray(hint)) {
    const keys = Object.keys(hint);
    if (keys.length === 0) return undefined;
    if (keys.length === 1 && keys[0] === '$natural') return hint as Document;
  } else if (typeof hint !== 'string') {
    throw new CommandError('FailedToParse', 'hint must be a string or an object');
  }
  // Hidden indexes are invisible to mongod's planner, so a hint cannot name them either.
  const spec = collection
    .indexSpecs()
    .filter((candidate) => candidate.hidden !== true)
    .find((candidate) => (typeof hint === 'string' ? candidate.name === hint : valueKey(candidate.key) === valueKey(hint)));
  if (!spec) {
    throw new CommandError(
      'BadValue',
      `error processing query: ns=${collection.namespace} planner returned error :: caused by :: hint provided does not correspond to an existing index`,
    );
  }
  return Object.fromEntries(Object.entries(spec.key).map(([field, direction]) => [field, direction === -1 ? -1 : 1]));
}

const getMore: CommandHandler = (command, context) => {
  const collection = typeof command.collection === 'string' ? command.collection : '';
  return context.cursors.getMore(command.getMore, `${context.dbName}.${collection}`, optionalNumber(command, 'batchSize'));
};

const killCursors: CommandHandler = (command, context) => {
  const ids = Array.isArray(command.cursors) ? command.cursors : [];
  return context.cursors.kill(ids);
};

const count: CommandHandler = (command, context) => {
  const collection = context.catalog.collection(context.dbName, targetCollection(command));
  if (command.hint !== undefined) hintOrder(collection, command.hint);
  const query = (command.query ?? {}) as Document;
  const skip = optionalNumber(command, 'skip') ?? 0;
  const limit = Math.abs(optionalNumber(command, 'limit') ?? 0);
  // estimatedDocumentCount sends a bare count: answer it from the map size, as mongod answers from metadata.
  if (Object.keys(query).length === 0) {
    const total = Math.max(0, (collection?.documents.size ?? 0) - skip);
    return { n: limit ? Math.min(limit, total) : total, ok: 1 };
  }
  return { n: selectDocuments(collection, query, { skip, limit }).length, ok: 1 };
};

const distinct: CommandHandler = (command, context) => {
  if (typeof command.key !== 'string') throw new CommandError('TypeMismatch', "BSON field 'distinct.key' must be a string");
  const collection = context.catalog.collection(context.dbName, targetCollection(command));
  if (command.hint !== undefined) hintOrder(collection, command.hint);
  const seen = new Map<string, unknown>();
  for (const document of selectDocuments(collection, (command.query ?? {}) as Document)) {
    for (const value of valuesAtPath(document, command.key)) if (value !== undefined) seen.set(valueKey(value), value);
  }
  return { values: [...seen.values()], ok: 1 };
};

export const readCommands: Record<string, CommandHandler> = { find, getMore, killCursors, count, distinct };

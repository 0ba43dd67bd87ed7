// createIndexes, listIndexes, dropIndexes.
import type { Document } from 'bson';
import type { CollectionStore } from '../engine/collection-store.js';
import { CommandError } from '../engine/command-error.js';
import { type IndexSpec, normalizeIndexSpec } from '../engine/index-spec.js';
import { valueKey } from '../engine/value-key.js';
import { type CommandHandler, targetCollection } from './command-context.js';
import { requireArray } from './write-result.js';

// The options that change what an index enforces; two specs differing only elsewhere are the same index.
function behaviour(spec: IndexSpec): string {
  const { unique, sparse, partialFilterExpression, expireAfterSeconds, collation } = spec;
  return valueKey({ unique: unique ?? false, sparse: sparse ?? false, partialFilterExpression, expireAfterSeconds, collation });
}

/** Returns true when an identical index already exists; throws on the conflicts mongod rejects. */
function alreadyExists(collection: CollectionStore, spec: IndexSpec): boolean {
  for (const existing of collection.indexSpecs()) {
    const sameKey = valueKey(existing.key) === valueKey(spec.key);
    if (existing.name === spec.name) {
      if (!sameKey) {
        throw new CommandError(
          'IndexKeySpecsConflict',
          `An existing index has the same name as the requested index. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(existing)}`,
        );
      }
      if (behaviour(existing) !== behaviour(spec) && existing.name !== '_id_') {
        throw new CommandError(
          'IndexOptionsConflict',
          `An existing index has the same name as the requested index. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(existing)}`,
        );
      }
      return true;
    }
    if (sameKey && valueKey(existing.partialFilterExpression) === valueKey(spec.partialFilterExpression)) {
      throw new CommandError('IndexOptionsConflict', `Index already exists with a different name: ${existing.name}`);
    }
  }
  return false;
}

const createIndexes: CommandHandler = (command, context) => {
  const specs = requireArray(command, 'indexes').map(normalizeIndexSpec);
  const { collection, created } = context.catalog.ensureCollection(context.dbName, targetCollection(command));
  const numIndexesBefore = collection.indexSpecs().length;
  const toCreate = specs.filter((spec) => !alreadyExists(collection, spec));
  const built: string[] = [];
  try {
    for (const spec of toCreate) {
      collection.createIndex(spec);
      built.push(spec.name);
    }
  } catch (error) {
    // createIndexes is all-or-nothing: undo the indexes this command already built.
    for (const name of built) collection.dropIndex(name);
    throw error;
  }
  const reply: Document = { numIndexesBefore, numIndexesAfter: collection.indexSpecs().length, createdCollectionAutomatically: created };
  if (toCreate.length === 0) reply.note = 'all indexes already exist';
  return { ...reply, ok: 1 };
};

function requireCollection(command: Document, context: Parameters<CommandHandler>[1]): CollectionStore {
  const collection = context.catalog.collection(context.dbName, targetCollection(command));
  if (!collection) throw new CommandError('NamespaceNotFound', `ns does not exist: ${context.dbName}.${targetCollection(command)}`);
  return collection;
}

const listIndexes: CommandHandler = (command, context) => {
  const collection = requireCollection(command, context);
  const batchSize = (command.cursor as Document | undefined)?.batchSize as number | undefined;
  return context.cursors.open(collection.namespace, collection.indexSpecs(), batchSize);
};

const dropIndexes: CommandHandler = (command, context) => {
  const collection = requireCollection(command, context);
  const nIndexesWas = collection.indexSpecs().length;
  const target = command.index;
  const specs = collection.indexSpecs();
  let names: string[];
  if (target === '*') names = specs.filter((spec) => spec.name !== '_id_').map((spec) => spec.name);
  else if (typeof target === 'string') names = [target];
  else if (Array.isArray(target)) names = target as string[];
  else if (typeof target === 'object' && target !== null) {
    const match = specs.find((spec) => valueKey(spec.key) === valueKey(target));
    if (!match) throw new CommandError('IndexNotFound', `can't find index with key: ${JSON.stringify(target)}`);
    names = [match.name];
  } else throw new CommandError('TypeMismatch', "BSON field 'index' must be a string, an array or an object");
  for (const name of names) if (!collection.hasIndex(name)) throw new CommandError('IndexNotFound', `index not found with name [${name}]`);
  for (const name of names) collection.dropIndex(name);
  return { nIndexesWas, ok: 1 };
};

export const indexCommands: Record<string, CommandHandler> = { createIndexes, listIndexes, dropIndexes, deleteIndexes: dropIndexes };

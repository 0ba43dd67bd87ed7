// create, drop, dropDatabase, listCollections, listDatabases.
import type { Document } from 'bson';
import { Query } from 'mingo/query';
import { CommandError } from '../engine/command-error.js';
import { ID_INDEX } from '../engine/index-spec.js';
import { valueKey } from '../engine/value-key.js';
import { MINGO_QUERY_COMPUTE_OPTIONS } from '../engine/mingo-options.js';
import { refuseScriptsInFilter } from '../engine/server-script.js';
import { type CommandHandler, targetCollection } from './command-context.js';

// Options a collection keeps; the rest of the command (lsid, $db, writeConcern...) is envelope.
const COLLECTION_OPTIONS = [
  'capped',
  'size',
  'max',
  'validator',
  'validationLevel',
  'validationAction',
  'collation',
  'timeseries',
  'expireAfterSeconds',
  'clusteredIndex',
  'changeStreamPreAndPostImages',
  'storageEngine',
];

const create: CommandHandler = (command, context) => {
  if (command.viewOn !== undefined) throw new CommandError('CommandNotSupported', 'views are not supported by the embedded server');
  // mongod reads `capped` as a bool or a number (non-zero is true) and refuses, with ok: 0, a capped
  // collection without a size and a size or max without capped (create_command.cpp).
  const capped = command.capped === true || (typeof command.capped === 'number' && command.capped !== 0);
  if (capped && (typeof command.size !== 'number' || command.size <= 0)) {
    throw new CommandError('InvalidOptions', "the 'size' field is required when 'capped' is true");
  }
  if (!capped && (command.size != null || command.max != null)) {
    throw new CommandError('InvalidOptions', "the 'capped' field needs to be true when either the 'size' or 'max' fields are present");
  }
  const options: Document = {};
  for (const option of COLLECTION_OPTIONS) if (command[option] !== undefined) options[option] = command[option];
  if (command.capped !== undefined) options.capped = capped;
  context.catalog.createCollection(context.dbName, targetCollection(command), options);
  return { ok: 1 };
};

// Since MongoDB 7.0, dropping a collection that does not exist succeeds.
const drop: CommandHandler = (command, context) => {
  const name = targetCollection(command);
  const collection = context.catalog.collection(context.dbName, name);
  const nIndexesWas = collection?.indexSpecs().length;
  context.catalog.dropCollection(context.dbName, name);
  return collection ? { nIndexesWas, ns: collection.namespace, ok: 1 } : { ok: 1 };
};

const dropDatabase: CommandHandler = (_command, context) => {
  context.catalog.dropDatabase(context.dbName);
  return { ok: 1 };
};

const listCollections: CommandHandler = (command, context) => {
  let entries: Document[] = context.catalog.collections(context.dbName).map((collection) => ({
    name: collection.name,
    type: 'collection',
    options: collection.options,
    info: { readOnly: false, uuid: collection.uuid },
    idIndex: ID_INDEX,
  }));
  const filter = command.filter as Document | undefined;
  if (filter && Object.keys(filter).length) {
    refuseScriptsInFilter(filter);
    const query = new Query(filter, MINGO_QUERY_COMPUTE_OPTIONS);
    entries = entries.filter((entry) => query.test(entry));
  }
  if (command.nameOnly) entries = entries.map(({ name, type }) => ({ name, type }));
  const batchSize = (command.cursor as Document | undefined)?.batchSize as number | undefined;
  return context.cursors.open(`${context.dbName}.$cmd.listCollections`, entries, batchSize);
};

const listDatabases: CommandHandler = (command, context) => {
  let databases: Document[] = context.catalog.databaseNames().map((name) => ({ name, sizeOnDisk: 0, empty: false }));
  if (command.filter && Object.keys(command.filter).length) {
    refuseScriptsInFilter(command.filter);
    const query = new Query(command.filter as Document, MINGO_QUERY_COMPUTE_OPTIONS);
    databases = databases.filter((entry) => query.test(entry));
  }
  if (command.nameOnly) return { databases: databases.map(({ name }) => ({ name })), ok: 1 };
  return { databases, totalSize: 0, totalSizeMb: 0, ok: 1 };
};

// collMod options this server cannot honour: refused, never acknowledged and ignored.
const UNSUPPORTED_COLL_MOD = [
  'viewOn',
  'pipeline',
  'expireAfterSeconds',
  'timeseries',
  'changeStreamPreAndPostImages',
  'cappedSize',
  'cappedMax',
  'clusteredIndex',
  'validator',
  'validationLevel',
  'validationAction',
];

/** collMod: an index's `hidden` and `expireAfterSeconds` (what mongoose's hideIndexes sends); other options are refused. */
const collMod: CommandHandler = (command, context) => {
  const name = targetCollection(command);
  const collection = context.catalog.collection(context.dbName, name);
  if (!collection) throw new CommandError('NamespaceNotFound', `ns does not exist: ${context.dbName}.${name}`);
  for (const option of UNSUPPORTED_COLL_MOD) {
    if (command[option] !== undefined) {
      throw new CommandError('CommandNotSupported', `collMod ${option} is not supported by the embedded server`);
    }
  }
  const reply: Document = {};
  const index = command.index as Document | undefined;
  if (index !== undefined) {
    if (typeof index !== 'object' || index === null) throw new CommandError('TypeMismatch', "BSON field 'collMod.index' is the wrong type");
    const byName = typeof index.name === 'string';
    const spec = collection
      .indexSpecs()
      .find((candidate) => (byName ? candidate.name === index.name : valueKey(candidate.key) === valueKey(index.keyPattern)));
    if (!spec) {
      const wanted = byName ? String(index.name) : JSON.stringify(index.keyPattern);
      throw new CommandError('IndexNotFound', `cannot find index ${wanted} for ns ${collection.namespace}`);
    }
    const next = { ...spec };
    if (index.hidden !== undefined) {
      if (spec.name === ID_INDEX.name) throw new CommandError('BadValue', "can't hide _id index");
      reply.hidden_old = spec.hidden === true;
      reply.hidden_new = index.hidden === true;
      if (index.hidden === true) next.hidden = true;
      else delete next.hidden;
    }
    if (index.expireAfterSeconds !== undefined) {
      if (spec.expireAfterSeconds === undefined) throw new CommandError('InvalidOptions', 'no expireAfterSeconds field to update');
      reply.expireAfterSeconds_old = spec.expireAfterSeconds;
      reply.expireAfterSeconds_new = index.expireAfterSeconds;
      next.expireAfterSeconds = index.expireAfterSeconds as number;
    }
    collection.modifyIndex(next);
  }
  return { ...reply, ok: 1 };
};

export const collectionCommands: Record<string, CommandHandler> = { create, drop, dropDatabase, listCollections, listDatabases, collMod };

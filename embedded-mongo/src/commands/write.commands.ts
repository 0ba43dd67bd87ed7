// insert, update and delete: batches of statements with per-statement write errors.
import { type Document, ObjectId } from 'bson';
import { applyUpdate, isOperatorUpdate, upsertSeed } from '../engine/apply-update.js';
import { CommandError } from '../engine/command-error.js';
import { selectDocuments } from '../engine/query-engine.js';
import { type CommandHandler, targetCollection } from './command-context.js';
import { requireArray, runStatements, sameDocument } from './write-result.js';

/** MongoDB stores `_id` first and generates an ObjectId when the client did not send one. */
export function prepareForInsert(document: Document): Document {
  if (document._id === undefined) return { _id: new ObjectId(), ...document };
  if (Array.isArray(document._id)) throw new CommandError('BadValue', "can't use an array for _id");
  if (Object.keys(document)[0] === '_id') return document;
  const { _id, ...rest } = document;
  return { _id, ...rest };
}

function withErrors(reply: Document, writeErrors: Document[]): Document {
  return writeErrors.length ? { ...reply, writeErrors, ok: 1 } : { ...reply, ok: 1 };
}

const insert: CommandHandler = (command, context) => {
  const documents = requireArray(command, 'documents');
  const { collection } = context.catalog.ensureCollection(context.dbName, targetCollection(command));
  let n = 0;
  const writeErrors = runStatements(documents, command.ordered !== false, (document) => {
    collection.insert(prepareForInsert(document));
    n += 1;
  });
  return withErrors({ n }, writeErrors);
};

const update: CommandHandler = (command, context) => {
  const statements = requireArray(command, 'updates');
  const name = targetCollection(command);
  let n = 0;
  let nModified = 0;
  const upserted: Document[] = [];
  const writeErrors = runStatements(statements, command.ordered !== false, (statement, index) => {
    const filter = (statement.q ?? {}) as Document;
    const spec = { filter, update: statement.u as Document | Document[], arrayFilters: statement.arrayFilters as Document[] | undefined };
    if (typeof spec.update !== 'object' || spec.update === null)
      throw new CommandError('FailedToParse', 'update statement needs a u document');
    if (statement.multi && !Array.isArray(spec.update) && !isOperatorUpdate(spec.update)) {
      throw new CommandError('FailedToParse', 'multi update is not supported for replacement-style update');
    }
    const existing = context.catalog.collection(context.dbName, name);
    const matches = selectDocuments(existing, filter, { limit: statement.multi ? 0 : 1, collation: statement.collation });
    if (matches.length === 0) {
      if (!statement.upsert) return;
      const document = applyUpdate(upsertSeed(filter), spec, true);
      context.catalog.ensureCollection(context.dbName, name).collection.insert(document);
      n += 1;
      upserted.push({ index, _id: document._id });
      return;
    }
    for (const match of matches) {
      const next = applyUpdate(match, spec, false);
      n += 1;
      if (sameDocument(match, next)) continue;
      existing?.replace(match, next);
      nModified += 1;
    }
  });
  return withErrors(upserted.length ? { n, nModified, upserted } : { n, nModified }, writeErrors);
};

const remove: CommandHandler = (command, context) => {
  const statements = requireArray(command, 'deletes');
  const collection = context.catalog.collection(context.dbName, targetCollection(command));
  let n = 0;
  const writeErrors = runStatements(statements, command.ordered !== false, (statement) => {
    const limit = Number(statement.limit ?? 0);
    if (limit !== 0 && limit !== 1) throw new CommandError('FailedToParse', 'The limit field in delete objects must be 0 or 1');
    for (const document of selectDocuments(collection, (statement.q ?? {}) as Document, { limit, collation: statement.collation })) {
      collection?.remove(document);
      n += 1;
    }
  });
  return withErrors({ n }, writeErrors);
};

export const writeCommands: Record<string, CommandHandler> = { insert, update, delete: remove };

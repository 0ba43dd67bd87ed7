// findAndModify: the atomic read-modify-write behind findOneAndUpdate/Replace/Delete.
import type { Document } from 'bson';
import { applyUpdate, upsertSeed } from '../engine/apply-update.js';
import { CommandError } from '../engine/command-error.js';
import { projectDocument, selectDocuments } from '../engine/query-engine.js';
import { type CommandHandler, targetCollection } from './command-context.js';
import { sameDocument } from './write-result.js';

function project(document: Document | null, fields: Document | undefined): Document | null {
  return document && fields ? projectDocument(document, fields) : document;
}

const findAndModify: CommandHandler = (command, context) => {
  const name = targetCollection(command);
  const filter = (command.query ?? {}) as Document;
  const update = command.update as Document | Document[] | undefined;
  const fields = command.fields as Document | undefined;
  if (command.remove && update !== undefined) throw new CommandError('FailedToParse', 'Cannot specify both an update and remove=true');
  if (!command.remove && update === undefined) throw new CommandError('FailedToParse', 'Either an update or remove=true must be specified');
  if (command.remove && command.upsert) throw new CommandError('FailedToParse', 'Cannot specify both upsert=true and remove=true');

  const existing = context.catalog.collection(context.dbName, name);
  const [match] = selectDocuments(existing, filter, { sort: command.sort as Document | undefined, limit: 1, collation: command.collation });
  if (command.remove) {
    if (match) existing?.remove(match);
    return { lastErrorObject: { n: match ? 1 : 0 }, value: project(match ?? null, fields), ok: 1 };
  }

  const spec = { filter, update: update as Document | Document[], arrayFilters: command.arrayFilters as Document[] | undefined };
  if (match) {
    const next = applyUpdate(match, spec, false);
    if (!sameDocument(match, next)) existing?.replace(match, next);
    return { lastErrorObject: { n: 1, updatedExisting: true }, value: project(command.new ? next : match, fields), ok: 1 };
  }
  if (!command.upsert) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
  const document = applyUpdate(upsertSeed(filter), spec, true);
  context.catalog.ensureCollection(context.dbName, name).collection.insert(document);
  return {
    lastErrorObject: { n: 1, updatedExisting: false, upserted: document._id },
    value: command.new ? project(document, fields) : null,
    ok: 1,
  };
};

export const findAndModifyCommands: Record<string, CommandHandler> = { findAndModify, findandmodify: findAndModify };

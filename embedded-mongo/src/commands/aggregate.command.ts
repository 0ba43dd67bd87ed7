// aggregate: mingo runs the pipeline; stages that would write to the server are refused.
import type { Document } from 'bson';
import { CommandError } from '../engine/command-error.js';
import { aggregateDocuments } from '../engine/query-engine.js';
import type { CommandHandler } from './command-context.js';
import { hintOrder } from './read.commands.js';

// $out/$merge would write into mingo's in-memory arrays, bypassing indexes and the journal.
const REFUSED_STAGES = new Set([
  '$out',
  '$merge',
  '$currentOp',
  '$listSessions',
  '$listLocalSessions',
  '$changeStream',
  '$indexStats',
  '$collStats',
]);

const aggregate: CommandHandler = (command, context) => {
  const pipeline = command.pipeline;
  if (!Array.isArray(pipeline)) throw new CommandError('TypeMismatch', "'pipeline' option must be specified as an array");
  if (command.explain) throw new CommandError('CommandNotSupported', 'explain is not supported by the embedded server');
  if (typeof command.cursor !== 'object' || command.cursor === null) {
    throw new CommandError('FailedToParse', "The 'cursor' option is required, except for aggregate with the explain argument");
  }
  for (const stage of pipeline as Document[]) {
    const name = Object.keys(stage)[0] ?? '';
    if (REFUSED_STAGES.has(name)) throw new CommandError('CommandNotSupported', `${name} is not supported by the embedded server`);
    if (!name.startsWith('$')) throw new CommandError('Location40324', `Unrecognized pipeline stage name: '${name}'`);
  }
  const collectionName = typeof command.aggregate === 'string' ? command.aggregate : undefined;
  if (collectionName && command.hint !== undefined) hintOrder(context.catalog.collection(context.dbName, collectionName), command.hint);
  const source = collectionName ? [...(context.catalog.collection(context.dbName, collectionName)?.documents.values() ?? [])] : [];
  const resolve = (name: string) => [...(context.catalog.collection(context.dbName, name)?.documents.values() ?? [])];
  let results: Document[];
  try {
    results = aggregateDocuments(source, pipeline as Document[], resolve, command.collation as Document | undefined);
  } catch (error) {
    const unknown = /unregistered pipeline operator (\$\w+)/i.exec((error as Error).message);
    if (unknown) throw new CommandError('Location40324', `Unrecognized pipeline stage name: '${unknown[1]}'`);
    throw error;
  }
  const namespace = `${context.dbName}.${collectionName ?? '$cmd.aggregate'}`;
  const batchSize = (command.cursor as Document).batchSize as number | undefined;
  return context.cursors.open(namespace, results, batchSize);
};

export const aggregateCommands: Record<string, CommandHandler> = { aggregate };

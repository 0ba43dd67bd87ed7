// Routes a decoded request to its handler, refuses transactions, and makes writes durable before replying.
import type { Document } from 'bson';
import type { Logger } from 'pino';
import type { Catalog } from '../engine/catalog.js';
import type { ChangeOp } from '../engine/change-op.js';
import { CommandError, toCommandError } from '../engine/command-error.js';
import type { CursorRegistry } from '../engine/cursor-registry.js';
import { aggregateCommands } from './aggregate.command.js';
import type { CommandContext, CommandHandler, ServerStatusSource } from './command-context.js';
import { collectionCommands } from './collection.commands.js';
import { findAndModifyCommands } from './find-and-modify.command.js';
import { handshakeCommands } from './handshake.commands.js';
import { indexCommands } from './index.commands.js';
import { readCommands } from './read.commands.js';
import { writeCommands } from './write.commands.js';

/** Where committed changes go: the journal, or nowhere in in-memory mode. */
export interface ChangeCommitter {
  /** Resolves once `changes` are durable; rejects if they cannot be made durable. */
  commit(changes: ChangeOp[]): Promise<void> | undefined;
}

const HANDLERS: Record<string, CommandHandler> = {
  ...handshakeCommands,
  ...readCommands,
  ...writeCommands,
  ...findAndModifyCommands,
  ...aggregateCommands,
  ...collectionCommands,
  ...indexCommands,
};

export const SUPPORTED_COMMANDS = Object.keys(HANDLERS);

export interface DispatcherOptions {
  catalog: Catalog;
  cursors: CursorRegistry;
  committer: ChangeCommitter;
  server: ServerStatusSource;
  logger: Logger;
}

export class CommandDispatcher {
  constructor(private readonly options: DispatcherOptions) {}

  /** Replies synchronously when nothing changed; otherwise once the changes are durable. */
  execute(command: Document, dbName: string, connectionId: number): Document | Promise<Document> {
    const { catalog, cursors, committer, server, logger } = this.options;
    let reply: Document;
    let changes: ChangeOp[];
    try {
      reply = this.run(command, { catalog, cursors, dbName, connectionId, server });
    } catch (error) {
      // mingo reports bad operator arguments as plain errors (often TypeErrors): answer them as
      // BadValue, but log them, since a bug of ours would look the same.
      if (!(error instanceof CommandError))
        logger.warn({ err: error, command: Object.keys(command)[0] }, 'command failed with a non-command error');
      reply = toCommandError(error).toReply();
    } finally {
      // A failed ordered batch still applied its first statements: those must be journaled too.
      changes = catalog.drainChanges();
    }
    if (changes.length === 0) return reply;
    const durable = committer.commit(changes);
    if (!durable) return reply;
    return durable.then(
      () => reply,
      (error: Error) => new CommandError('InternalError', `write could not be made durable: ${error.message}`).toReply(),
    );
  }

  private run(command: Document, context: CommandContext): Document {
    const name = Object.keys(command)[0] ?? '';
    // A standalone mongod refuses transactions the same way; never run them as plain writes.
    if (command.txnNumber !== undefined || command.autocommit !== undefined || command.startTransaction !== undefined) {
      throw new CommandError('IllegalOperation', 'Transaction numbers are only allowed on a replica set member or mongos');
    }
    if (!context.dbName) throw new CommandError('Location40571', 'OP_MSG requests require a $db argument');
    const handler = Object.hasOwn(HANDLERS, name) ? HANDLERS[name] : undefined;
    if (!handler) throw new CommandError('CommandNotFound', `no such command: '${name}'`);
    return handler(command, context);
  }
}

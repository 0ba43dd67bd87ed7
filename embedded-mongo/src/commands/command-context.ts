// What every command handler receives, and the shape of a handler.
import type { Document } from 'bson';
import type { Catalog } from '../engine/catalog.js';
import type { CursorRegistry } from '../engine/cursor-registry.js';

export interface ServerStatusSource {
  startedAt: Date;
  connections(): { current: number; totalCreated: number };
  /** Per-command server-side timings and journal counters, for serverStatus.embedded. */
  embeddedStats(): Document;
}

export interface CommandContext {
  catalog: Catalog;
  cursors: CursorRegistry;
  dbName: string;
  connectionId: number;
  server: ServerStatusSource;
}

/** Handlers run synchronously: a command's reads and writes happen atomically between I/O. */
export type CommandHandler = (command: Document, context: CommandContext) => Document;

export const WIRE_LIMITS = {
  maxBsonObjectSize: 16 * 1024 * 1024,
  maxMessageSizeBytes: 48_000_000,
  maxWriteBatchSize: 100_000,
} as const;

/** The collection a command names in its first field, e.g. `{ find: 'users' }`. */
export function targetCollection(command: Document): string {
  const name = Object.values(command)[0];
  return typeof name === 'string' ? name : '';
}

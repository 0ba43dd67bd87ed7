// Public entry of the embedded MongoDB-wire server: start it in-process and get a connection URI.
import type { Logger } from 'pino';
import { startEmbeddedServer } from './start-embedded-server.js';

export interface EmbeddedMongoOptions {
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0: a random free port. */
  port?: number;
  /** Directory for journal and snapshots; omitted = in-memory (no durability). */
  dbPath?: string;
  /** Default: a silent pino logger. */
  logger?: Logger;
}

export interface EmbeddedMongo {
  /** mongodb://127.0.0.1:PORT */
  uri: string;
  port: number;
  stop(): Promise<void>;
}

export function startEmbeddedMongo(options: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  return startEmbeddedServer(options);
}

// Test support: one database over the wire per test file (the embedded server, or MONGODB_URI) with the Copilot's stores.
import { type Connection, Types } from 'mongoose';
import { openTestDatabase as openDatabase } from './test-database.js';
import { createTestStores } from './test-stores.js';
import type { AiStores } from '../src/store/ai/ai-stores.js';
import { openWatchedConnection, type WatchedConnection } from './watched-connection.js';

export interface TestDatabase {
  connection: Connection;
  stores: AiStores;
  /** Another connection to the same database that records the commands it sends. */
  watch(): Promise<WatchedConnection>;
  close(): Promise<void>;
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const database = await openDatabase('ai');
  const { aiStores } = await createTestStores(database.connection);
  return {
    connection: database.connection,
    stores: aiStores,
    watch: () => openWatchedConnection(database),
    close: () => database.close(),
  };
}

/** A site id no test has used (shaped like real ones): each property run gets a clean slate, nothing is dropped. */
export function freshSiteId(): string {
  return new Types.ObjectId().toHexString();
}

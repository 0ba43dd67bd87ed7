// Test support: one database over the wire per test file — the embedded server, or MONGODB_URI.
import { randomBytes } from 'node:crypto';
import mongoose, { type Connection, Types } from 'mongoose';
import { startEmbeddedMongo } from '../../embedded/index.js';
import { createTestStores } from '../../../testing/test-stores.js';
import type { AiStores } from '../ai-stores.js';

export interface TestDatabase {
  connection: Connection;
  stores: AiStores;
  close(): Promise<void>;
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const external = process.env.MONGODB_URI;
  const server = external ? undefined : await startEmbeddedMongo();
  const uri = external ?? server!.uri;
  const dbName = `lumibase_ai_test_${randomBytes(6).toString('hex')}`;
  const connection = await mongoose.createConnection(uri, { dbName }).asPromise();
  const { aiStores: stores } = await createTestStores(connection);
  return {
    connection,
    stores,
    async close() {
      if (external) await connection.dropDatabase().catch(() => undefined);
      await connection.close();
      await server?.stop();
    },
  };
}

/** A site id no test has used (shaped like real ones): each property run gets a clean slate, nothing is dropped. */
export function freshSiteId(): string {
  return new Types.ObjectId().toHexString();
}

// Where the conformance suite runs: a real MongoDB when MONGODB_URI is set, else its own embedded server.
import { randomBytes } from 'node:crypto';
import { type Document, MongoClient, type ObjectId } from 'mongodb';
import { type EmbeddedMongo, startEmbeddedMongo } from '../src/index.js';

export const realMongoUri = process.env.MONGODB_URI;
/** Tests that need the embedded server's internals say "(embedded only)" and skip when this is true. */
export const runningAgainstRealMongo = realMongoUri !== undefined;

export interface TestTarget {
  uri: string;
  client: MongoClient;
  /** A database name no other test file uses, so files can share one real MongoDB. */
  uniqueDbName(label: string): string;
  embedded?: EmbeddedMongo;
  close(): Promise<void>;
}

export async function openTestTarget(): Promise<TestTarget> {
  const embedded = realMongoUri ? undefined : await startEmbeddedMongo();
  const uri = realMongoUri ?? (embedded as EmbeddedMongo).uri;
  const client = await MongoClient.connect(uri);
  const created: string[] = [];
  return {
    uri,
    client,
    embedded,
    uniqueDbName(label) {
      const name = `conf_${label}_${randomBytes(4).toString('hex')}`;
      created.push(name);
      return name;
    },
    async close() {
      if (realMongoUri) for (const name of created) await client.db(name).dropDatabase();
      await client.close();
      await embedded?.stop();
    },
  };
}

/** A document with any `_id` type (the driver's default typing insists on ObjectId). */
export type LooseDocument = { _id?: number | string | ObjectId } & Document;

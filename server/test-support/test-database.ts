// Store tests talk to MongoDB over the wire: a real one when MONGODB_URI is set, else an embedded server of their own.
import { randomBytes } from 'node:crypto';
import mongoose, { type Connection } from 'mongoose';
import { type EmbeddedMongo, startEmbeddedMongo } from '@lumibase/embedded-mongo';

export interface TestDatabase {
  uri: string;
  connection: Connection;
  /** Another connection to the same database, as a second process would have. */
  connect(): Promise<Connection>;
  close(): Promise<void>;
}

export async function openTestDatabase(label: string): Promise<TestDatabase> {
  const embedded: EmbeddedMongo | undefined = process.env.MONGODB_URI ? undefined : await startEmbeddedMongo();
  const uri = process.env.MONGODB_URI ?? (embedded as EmbeddedMongo).uri;
  const dbName = `test_${label.replace(/[^A-Za-z0-9_]/g, '_')}_${randomBytes(4).toString('hex')}`;
  const connections: Connection[] = [];
  const connect = async () => {
    const connection = await mongoose.createConnection(uri, { dbName }).asPromise();
    connections.push(connection);
    return connection;
  };
  const connection = await connect();
  return {
    uri,
    connection,
    connect,
    async close() {
      if (process.env.MONGODB_URI) await connection.dropDatabase().catch(() => {});
      await Promise.all(connections.map((opened) => opened.close()));
      await embedded?.stop();
    },
  };
}

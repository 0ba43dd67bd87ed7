// Test support: a connection to a test database that records the commands it sends (round trips, as the server sees them).
import mongoose, { type Connection } from 'mongoose';
import type { TestDatabase } from './test-database.js';

export interface WatchedConnection {
  connection: Connection;
  /** `command collection` of every command sent since the last `take()`, in order; clears the record. */
  take(): string[];
  close(): Promise<void>;
}

export async function openWatchedConnection(database: TestDatabase): Promise<WatchedConnection> {
  const connection = await mongoose.createConnection(database.uri, { dbName: database.connection.name, monitorCommands: true }).asPromise();
  let sent: string[] = [];
  connection.getClient().on('commandStarted', (event) => {
    if (['hello', 'isMaster', 'ping', 'endSessions', 'createIndexes', 'listIndexes'].includes(event.commandName)) return;
    sent.push(`${event.commandName} ${String(event.command[event.commandName])}`);
  });
  return {
    connection,
    take() {
      const taken = sent;
      sent = [];
      return taken;
    },
    close: () => connection.close(),
  };
}

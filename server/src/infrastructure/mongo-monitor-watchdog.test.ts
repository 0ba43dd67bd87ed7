// The watchdog over the driver's server monitor, against the embedded MongoDB through a TCP proxy that can stop
// answering on the connections already open (a heartbeat then stays outstanding, as in the wedge it guards against).
import { createServer, type Server, type Socket, connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import mongoose, { type ConnectOptions, type Connection, Schema } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedMongo, startEmbeddedMongo } from '@lumibase/embedded-mongo';
import { createLogger } from '../logger.js';
import { eventually } from '../../test-support/eventually.js';
import { type MongoMonitorWatchdog, watchMongoMonitor } from './mongo-monitor-watchdog.js';

/** Forwards to MongoDB; `silence()` makes every connection open now stop answering (new ones go through). */
class SilencingProxy {
  private server: Server | undefined;
  private readonly open = new Set<{ silenced: boolean; sockets: Socket[] }>();
  port = 0;
  connections = 0;

  constructor(private readonly target: number) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      this.connections++;
      const upstream = connect(this.target, '127.0.0.1');
      const pair = { silenced: false, sockets: [client, upstream] };
      this.open.add(pair);
      client.on('data', (chunk) => upstream.write(chunk));
      upstream.on('data', (chunk) => {
        if (!pair.silenced) client.write(chunk);
      });
      const close = () => {
        client.destroy();
        upstream.destroy();
        this.open.delete(pair);
      };
      for (const socket of pair.sockets) socket.on('error', close).on('close', close);
    });
    await new Promise<void>((listening) => this.server!.listen(0, '127.0.0.1', listening));
    this.port = (this.server!.address() as { port: number }).port;
  }

  silence(): void {
    for (const pair of this.open) pair.silenced = true;
  }

  async stop(): Promise<void> {
    for (const pair of this.open) for (const socket of pair.sockets) socket.destroy();
    await new Promise((closed) => this.server?.close(closed));
  }
}

const logger = createLogger({ level: 'silent' });
let mongo: EmbeddedMongo;
const opened: Array<{ connection: Connection; watchdog: MongoMonitorWatchdog; proxy: SilencingProxy }> = [];

beforeAll(async () => {
  mongo = await startEmbeddedMongo();
});
afterAll(async () => {
  for (const { connection, watchdog, proxy } of opened) {
    await watchdog.stop();
    await connection.close(true);
    await proxy.stop();
  }
  await mongo?.stop();
});

async function watched(wedgedAfterMs: number) {
  const proxy = new SilencingProxy(Number(new URL(mongo.uri).port));
  await proxy.start();
  const uri = `mongodb://127.0.0.1:${proxy.port}/?directConnection=true`;
  // Frequent heartbeats and a long socket timeout: a silenced heartbeat stays outstanding for 30 s on its own.
  const options: ConnectOptions = {
    dbName: `watchdog_${randomBytes(4).toString('hex')}`,
    heartbeatFrequencyMS: 300,
    connectTimeoutMS: 30_000,
    serverSelectionTimeoutMS: 5_000,
    bufferCommands: false,
  };
  const connection = await mongoose.createConnection(uri, options).asPromise();
  const watchdog = watchMongoMonitor(connection, { uri, options, logger, wedgedAfterMs, checkEveryMs: 200 });
  opened.push({ connection, watchdog, proxy });
  const Note = connection.model('Note', new Schema({ text: String }));
  return { proxy, connection, watchdog, Note };
}

describe('the MongoDB monitor watchdog', () => {
  it('opens the connection again when a heartbeat stays outstanding, and the models go on working', async () => {
    const { proxy, watchdog, Note } = await watched(2_000);
    await Note.create({ text: 'before' });
    const connectionsBefore = proxy.connections;

    // Every open connection stops answering: the monitor's next heartbeat never settles by itself within 30 s.
    proxy.silence();
    await eventually(async () => expect(watchdog.reopened()).toBe(1), { timeoutMs: 15_000 });

    // The same model, on fresh connections: the connection was opened again in place.
    expect(proxy.connections).toBeGreaterThan(connectionsBefore);
    await Note.create({ text: 'after' });
    expect((await Note.find().sort({ _id: 1 }).lean()).map((note) => note.text)).toEqual(['before', 'after']);
  }, 30_000);

  it('leaves a healthy connection alone: heartbeats that settle never count as wedged', async () => {
    const { watchdog, Note } = await watched(1_000);
    // Ten heartbeats and more, each settling in well under the limit.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(watchdog.reopened()).toBe(0);
    await Note.create({ text: 'still here' });
    expect(await Note.countDocuments()).toBe(1);
  }, 30_000);
});

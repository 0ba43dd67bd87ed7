// Gap-free delivery across a dropped pub/sub connection: an event another process published while this server's
// subscriber was away (a Redis restart, a dropped connection) still reaches its sockets, from the log, without waiting
// for the site's next event (the redis-down test lost an `approved` this way under load).
import { randomBytes } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventLog, type EventLog } from '../store/event-log.js';
import { eventually } from '../../test-support/eventually.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

const LABEL = `sub-reconnect-${randomBytes(3).toString('hex')}`;
let server: TestServer;
let eventLog: EventLog;
const sockets: Socket[] = [];

beforeAll(async () => {
  server = await startTestServer(LABEL);
  eventLog = await createEventLog(server.database.connection);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.close();
});

/** This server's socket.io subscriber connection, by the name it gives itself (never another test's). */
async function killSubscriber(): Promise<void> {
  const list = await server.redis.sendCommand<string>(['CLIENT', 'LIST', 'TYPE', 'pubsub']);
  const ids = list
    .split('\n')
    .filter((line) => line.includes(`name=lumibase-sockets-sub-test-${LABEL}-`))
    .map((line) => /(?:^| )id=(\d+)/.exec(line)?.[1])
    .filter((id): id is string => id !== undefined);
  expect(ids, 'the server names its subscriber connection').toHaveLength(1);
  await server.redis.sendCommand(['CLIENT', 'KILL', 'ID', ids[0]!]);
}

/** A socket of the site (replaying from 0), with the content events it receives. */
async function watch(siteId: string, token: string): Promise<{ socket: Socket; received: Array<{ seq: number; id?: string }> }> {
  const received: Array<{ seq: number; id?: string }> = [];
  const socket = io(server.baseUrl, {
    path: '/socket.io',
    auth: { token, siteId, lastSeq: 0 },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  socket.on('content-changed', (payload: { seq: number; id?: string }) => void received.push({ seq: payload.seq, id: payload.id }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, received };
}

describe('sockets whose server lost its pub/sub subscription', () => {
  it('each get the events published while the subscriber was away, from the log, once it is back', async () => {
    const siteId = await server.createSite('Subscriber reconnect');
    const admin = await server.createMember({ siteId, role: 'admin' });
    // Two sockets of one site: the site's latest seq is read once for both, and each must get the event.
    const [first, second] = await Promise.all([watch(siteId, admin.token), watch(siteId, admin.token)]);
    const log = eventLog.forSite(siteId);
    const before = await log.currentSeq();

    // Another process's event whose publish this server never heard: in the log, not on the wire.
    await killSubscriber();
    const missed = await log.append({
      eventId: `missed-${randomBytes(4).toString('hex')}`,
      event: { name: 'content-changed', body: { kind: 'item', action: 'created', collection: 'posts', id: 'missed' } },
    });
    expect(missed.payload.seq).toBe(before + 1);

    // No later event of the site comes to reveal the gap: the subscriber's return alone must bring it.
    for (const { received, socket } of [first!, second!]) {
      await eventually(async () => expect(received.map((event) => event.id)).toContain('missed'), { timeoutMs: 10_000 });
      expect(received.filter((event) => event.id === 'missed')).toEqual([{ seq: missed.payload.seq, id: 'missed' }]);
      expect(socket.connected).toBe(true);
    }
  });
});

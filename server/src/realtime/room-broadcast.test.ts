// Real sockets of one site while writes land concurrently: the caught-up ones are sent each event by one local
// broadcast, a socket joining mid-way replays first; every socket still sees every seq once, in order.
import { randomBytes } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventLog } from '../store/event-log.js';
import { eventually } from '../../test-support/eventually.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
const sockets: Socket[] = [];

beforeAll(async () => {
  server = await startTestServer(`room-broadcast-${randomBytes(3).toString('hex')}`);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.close();
});

/** A socket of the site with the seqs and item ids of the content events it receives. */
async function watch(siteId: string, token: string, lastSeq?: number) {
  const seqs: number[] = [];
  const ids: string[] = [];
  const socket = io(server.baseUrl, {
    path: '/socket.io',
    auth: { token, siteId, ...(lastSeq === undefined ? {} : { lastSeq }) },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  socket.onAny((_name: string, payload: { seq?: number; kind?: string; id?: string }) => {
    if (typeof payload?.seq === 'number') seqs.push(payload.seq);
    if (payload?.kind === 'item' && payload.id) ids.push(payload.id);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { seqs, ids };
}

/** A site with an admin and a `posts` collection; `create` adds a post through the API. */
async function siteWithPosts(name: string) {
  const siteId = await server.createSite(name);
  const admin = await server.createMember({ siteId, role: 'admin' });
  const created = await server.request('POST', '/collections', {
    token: admin.token,
    siteId,
    body: { name: 'posts', fields: [{ name: 'title', type: 'string' }] },
  });
  expect(created.status).toBe(201);
  const log = (await createEventLog(server.database.connection)).forSite(siteId);
  const create = (title: string) =>
    server.request<{ data: { id: string } }>('POST', '/items/posts', { token: admin.token, siteId, body: { data: { title } } });
  return { siteId, admin, log, create };
}

const consecutive = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe('site events to many sockets of one process', () => {
  it('reach every socket once and in order while items are created concurrently and a socket joins mid-way', async () => {
    const { siteId, admin, log, create } = await siteWithPosts('Room broadcast');
    // Live from the site's current seq: caught up at once, and no event after it can be missed.
    const from = await log.currentSeq();
    const live = await Promise.all([1, 2, 3].map(() => watch(siteId, admin.token, from)));

    const firstWave = await Promise.all(['a', 'b', 'c', 'd'].map(create));
    const joiner = await watch(siteId, admin.token, 0);
    const secondWave = await Promise.all(['e', 'f', 'g', 'h'].map(create));
    const itemIds = [...firstWave, ...secondWave].map((answer) => {
      expect(answer.status).toBe(201);
      return answer.body.data.id;
    });

    await eventually(async () => {
      const current = await log.currentSeq();
      for (const socket of [...live, joiner]) expect([...socket.ids].sort()).toEqual([...itemIds].sort());
      expect(joiner.seqs, 'the joiner replays the whole log, then goes on live').toEqual(consecutive(1, current));
      for (const socket of live) {
        expect(socket.seqs, 'a live socket: each seq once, in order, no gap').toEqual(consecutive(from + 1, current));
      }
    });
  });

  it('a burst of sockets handshaking while items are created (their log reads shared): each gets every event from its start, once, in order', async () => {
    const { siteId, admin, log, create } = await siteWithPosts('Reconnect storm');
    const from = await log.currentSeq();
    // A reconnect storm: sockets resuming from `from` and new ones (no lastSeq), all handshaking while writes land.
    const writes = Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map(create));
    const [resuming, fresh] = await Promise.all([
      Promise.all(Array.from({ length: 25 }, () => watch(siteId, admin.token, from))),
      Promise.all(Array.from({ length: 25 }, () => watch(siteId, admin.token))),
    ]);
    const itemIds = (await writes).map((answer) => answer.body.data.id);
    await eventually(async () => {
      const current = await log.currentSeq();
      for (const socket of resuming) {
        expect(socket.seqs, 'a resuming socket: every seq after its lastSeq once, in order').toEqual(consecutive(from + 1, current));
        expect([...socket.ids].sort()).toEqual([...itemIds].sort());
      }
      for (const socket of fresh) {
        const first = socket.seqs[0] ?? current + 1;
        expect(socket.seqs, 'a new socket: from where it started, each seq once, in order, up to the latest').toEqual(
          consecutive(first, current),
        );
      }
    });
  });
});

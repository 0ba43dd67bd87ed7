// Who may open a socket on the Studio's cookie, which site id it is held to, and how far back it may replay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { stopAll } from '../support/processes.js';
import { connected, SocketPool } from '../support/socket-client.js';

const STUDIO = 'https://studio.example.test';
const REPLAY_MAX_EVENTS = 5;
const cluster = new Cluster({ env: { STUDIO_ORIGIN: STUDIO, REPLAY_MAX_EVENTS: String(REPLAY_MAX_EVENTS) } });
let server: string;
let superadmin: ApiClient;
const sockets = new SocketPool();

beforeAll(async () => {
  await cluster.startMongo();
  server = await cluster.startServer();
  superadmin = await ApiClient.signIn(server, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  sockets.closeAll();
  await cluster.stop();
  await stopAll();
});

const watch = (auth: { token?: string; siteId?: string; lastSeq?: number }, headers: Record<string, string> = {}) =>
  sockets.connect(server, auth, headers);

describe('a socket authenticated by the session cookie', () => {
  it("is refused with FORBIDDEN from a foreign origin or none, and accepted from the server's own origin and STUDIO_ORIGIN", async () => {
    const siteId = await superadmin.createSite('Cookie sockets');
    const member = await superadmin.createMember(siteId, 'admin');
    const cookie = `lumibase_session=${member.token}`;
    const { port } = new URL(server);
    for (const origin of [`http://localhost:${Number(port) + 1}`, 'https://evil.studio.example.test', 'null']) {
      await expect(connected(watch({ siteId, lastSeq: 0 }, { cookie, origin })), origin).rejects.toThrow('FORBIDDEN');
    }
    await expect(connected(watch({ siteId, lastSeq: 0 }, { cookie }))).rejects.toThrow('FORBIDDEN');
    await expect(connected(watch({ siteId }, { cookie, origin: server }))).resolves.toBeUndefined();
    await expect(connected(watch({ siteId }, { cookie, origin: STUDIO }))).resolves.toBeUndefined();
    // A bad cookie is still UNAUTHENTICATED, whatever the origin; a token needs no origin at all.
    await expect(connected(watch({ siteId }, { cookie: 'lumibase_session=nope', origin: 'https://evil.example' }))).rejects.toThrow(
      'UNAUTHENTICATED',
    );
    await expect(connected(watch({ token: member.token, siteId }, { origin: 'https://evil.example' }))).resolves.toBeUndefined();
  });
});

describe('a socket opened with the site id spelt in upper case', () => {
  it('is disconnected when the member is removed (revocation names the canonical id)', async () => {
    const siteId = await superadmin.createSite('Upper case removal');
    const member = await superadmin.createMember(siteId, 'editor');
    const socket = watch({ token: member.token, siteId: siteId.toUpperCase() });
    await connected(socket);
    const disconnected = new Promise<string>((resolve) => {
      socket.socket.once('disconnect', resolve);
      setTimeout(() => resolve('still connected after 10 s'), 10_000);
    });
    await superadmin.expect(204, 'DELETE', `/members/${member.userId}`, { siteId });
    expect(await disconnected).toBe('io server disconnect');
  });

  it("receives the site's live events, under the canonical id", async () => {
    const siteId = await superadmin.createSite('Upper case events');
    const member = await superadmin.createMember(siteId, 'editor');
    const socket = watch({ token: member.token, siteId: siteId.toUpperCase() });
    await connected(socket);
    await superadmin.expect(201, 'POST', '/collections', { siteId, body: { name: 'posts', fields: [] } });
    const event = await socket.waitFor((received) => received.name === 'content-changed', 10_000);
    expect(event.payload).toMatchObject({ siteId, kind: 'collection', action: 'created', collection: 'posts' });
  });
});

describe('replay on connection', () => {
  it('replays at most REPLAY_MAX_EVENTS; a socket further behind (lastSeq 0 included) gets resync-required instead', async () => {
    const siteId = await superadmin.createSite('Bounded replay');
    const admin = await superadmin.createMember(siteId, 'admin');
    await admin.expect(201, 'POST', '/collections', { siteId, body: { name: 'posts', fields: [{ name: 'title', type: 'string' }] } });
    for (let index = 0; index < 7; index++) {
      await admin.expect(201, 'POST', '/items/posts', { siteId, body: { data: { title: `post ${index}` } } });
    }
    const { meta } = (await admin.request('GET', '/ai/approvals', { siteId })).body as { meta: { seq: number } };
    expect(meta.seq).toBe(8);

    const fromStart = watch({ token: admin.token, siteId, lastSeq: 0 });
    await connected(fromStart);
    const resync = await fromStart.waitFor((event) => event.name === 'resync-required');
    expect(resync.payload).toEqual({ siteId, seq: 8 });
    expect(fromStart.events).toHaveLength(1);

    const close = watch({ token: admin.token, siteId, lastSeq: 8 - REPLAY_MAX_EVENTS });
    await connected(close);
    await close.waitFor((event) => event.payload.seq === 8);
    expect(close.events.map((event) => [event.name, event.payload.seq])).toEqual([4, 5, 6, 7, 8].map((seq) => ['content-changed', seq]));
  });
});

// Reconnecting with lastSeq replays exactly the missed events in seq order, then live ones; and who may connect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { stopAll } from '../support/processes.js';
import { connected, SocketPool } from '../support/socket-client.js';

const cluster = new Cluster({ env: { DECIDE_WAIT_MS: '5000', CHAT_RATE_LIMIT_PER_MINUTE: '10000' } });
let server: string;
let superadmin: ApiClient;
const sockets = new SocketPool();

beforeAll(async () => {
  await cluster.startMongo();
  server = await cluster.startServer();
  await cluster.startWorker();
  superadmin = await ApiClient.signIn(server, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  sockets.closeAll();
  await cluster.stop();
  await stopAll();
});

const watch = (auth: { token?: string; siteId?: string; lastSeq?: number }) => sockets.connect(server, auth);

describe('reconnecting with lastSeq', () => {
  it('replays exactly the events missed while away, in seq order, then live ones with no gap or duplicate', async () => {
    const siteId = await superadmin.createSite('Replay');
    const admin = await superadmin.createMember(siteId, 'admin');
    await admin.expect(201, 'POST', '/collections', { siteId, body: { name: 'posts', fields: [{ name: 'title', type: 'string' }] } });

    const { meta } = (await admin.request('GET', '/ai/approvals', { siteId })).body as { meta: { seq: number } };
    const first = watch({ token: admin.token, siteId, lastSeq: meta.seq });
    await connected(first);
    const item = await admin.expect<{ id: string }>(201, 'POST', '/items/posts', { siteId, body: { data: { title: 'seen live' } } });
    const live = await first.waitFor((event) => event.name === 'content-changed' && event.payload.id === item.id);
    first.close();

    // While away: an approval created and decided, another created and rejected, items changed.
    const lastSeq = live.payload.seq as number;
    const approved = await admin.chat(siteId, 'add field body to posts as text');
    await admin.expect(200, 'POST', `/ai/approvals/${approved.approvalId}/decide`, { siteId, body: { decision: 'approved' } });
    const rejected = await admin.chat(siteId, 'delete collection posts');
    await admin.expect(200, 'POST', `/ai/approvals/${rejected.approvalId}/decide`, {
      siteId,
      body: { decision: 'rejected', reason: 'not today' },
    });
    await admin.expect(200, 'PATCH', `/items/posts/${item.id}`, { siteId, body: { data: { title: 'changed while away' } } });
    await admin.expect(204, 'DELETE', `/items/posts/${item.id}`, { siteId });
    const { meta: after } = (await admin.request('GET', '/ai/approvals', { siteId })).body as { meta: { seq: number } };

    const back = watch({ token: admin.token, siteId, lastSeq });
    await connected(back);
    await back.waitFor((event) => event.payload.seq === after.seq);
    const replayed = back.events.map((event) => [
      event.payload.seq,
      event.name,
      event.payload.approval?.status ?? `${event.payload.kind}:${event.payload.action}`,
    ]);
    expect(replayed).toEqual([
      [lastSeq + 1, 'approval-created', 'pending'],
      [lastSeq + 2, 'approval-decided', 'executing'],
      [lastSeq + 3, 'content-changed', 'field:created'],
      [lastSeq + 4, 'approval-decided', 'approved'],
      [lastSeq + 5, 'approval-created', 'pending'],
      [lastSeq + 6, 'approval-decided', 'rejected'],
      [lastSeq + 7, 'content-changed', 'item:updated'],
      [lastSeq + 8, 'content-changed', 'item:deleted'],
    ]);

    const next = await admin.expect<{ id: string }>(201, 'POST', '/items/posts', { siteId, body: { data: { title: 'live again' } } });
    const liveAgain = await back.waitFor((event) => event.name === 'content-changed' && event.payload.id === next.id);
    expect(liveAgain.payload.seq).toBe(after.seq + 1);
    expect(back.events.map((event) => event.payload.seq)).toEqual(Array.from({ length: 9 }, (_, index) => lastSeq + 1 + index));
  });

  it('asks a client whose lastSeq is ahead of the site to resync', async () => {
    const siteId = await superadmin.createSite('Ahead');
    const admin = await superadmin.createMember(siteId, 'admin');
    const socket = watch({ token: admin.token, siteId, lastSeq: 1000 });
    await connected(socket);
    const resync = await socket.waitFor((event) => event.name === 'resync-required');
    expect(resync.payload).toEqual({ siteId, seq: 0 });
  });
});

describe('the handshake', () => {
  it.each([
    ['no token', () => ({ siteId: '0'.repeat(24) }), 'UNAUTHENTICATED'],
    ['a bad token', () => ({ token: 'not-a-session', siteId: '0'.repeat(24) }), 'UNAUTHENTICATED'],
  ])('refuses %s with UNAUTHENTICATED', async (_case, auth, message) => {
    await expect(connected(watch(auth()))).rejects.toThrow(message);
  });

  it("refuses another site's id, an unknown one and a missing one with FORBIDDEN", async () => {
    const [mine, theirs] = [await superadmin.createSite('Mine'), await superadmin.createSite('Theirs')];
    const admin = await superadmin.createMember(mine, 'admin');
    await expect(connected(watch({ token: admin.token, siteId: theirs }))).rejects.toThrow('FORBIDDEN');
    await expect(connected(watch({ token: admin.token, siteId: 'ffffffffffffffffffffffff' }))).rejects.toThrow('FORBIDDEN');
    await expect(connected(watch({ token: admin.token }))).rejects.toThrow('FORBIDDEN');
    await expect(connected(watch({ token: admin.token, siteId: mine }))).resolves.toBeUndefined();
  });

  it('refuses a removed member, and disconnects their live socket when they are removed', async () => {
    const siteId = await superadmin.createSite('Removal');
    const member = await superadmin.createMember(siteId, 'editor');
    const socket = watch({ token: member.token, siteId });
    await connected(socket);
    const disconnected = new Promise<string>((resolve) => socket.socket.once('disconnect', resolve));
    await superadmin.expect(204, 'DELETE', `/members/${member.userId}`, { siteId });
    expect(await disconnected).toBe('io server disconnect');
    await expect(connected(watch({ token: member.token, siteId }))).rejects.toThrow('FORBIDDEN');
  });

  it("disconnects a session's sockets when it signs out", async () => {
    const siteId = await superadmin.createSite('Sign-out');
    const member = await superadmin.createMember(siteId, 'viewer');
    const socket = watch({ token: member.token, siteId });
    await connected(socket);
    const disconnected = new Promise<string>((resolve) => socket.socket.once('disconnect', resolve));
    await member.request('POST', '/auth/logout');
    expect(await disconnected).toBe('io server disconnect');
    await expect(connected(watch({ token: member.token, siteId }))).rejects.toThrow('UNAUTHENTICATED');
  });
});

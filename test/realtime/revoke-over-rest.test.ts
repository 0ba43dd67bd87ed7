// Access ended over REST on server A: the person's sockets on server B are disconnected within 2 s and get no site
// event written after the change (a membership removed or reduced, a site or user deleted, a logout, a password change).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { stopAll } from '../support/processes.js';
import { expectDisconnectedWithin, expectNoEventAfter, watchSite } from '../support/revoked-socket.js';
import { SocketPool, type TestSocket } from '../support/socket-client.js';

const cluster = new Cluster();
let serverA: string;
let serverB: string;
let superadmin: ApiClient;
const sockets = new SocketPool();

beforeAll(async () => {
  await cluster.startMongo();
  [serverA, serverB] = [await cluster.startServer(), await cluster.startServer()];
  superadmin = await ApiClient.signIn(serverA, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  sockets.closeAll();
  await cluster.stop();
  await stopAll();
});

const unique = () => Math.random().toString(36).slice(2, 8);
const PASSWORD = 'member-password-1';

/** A new user in `siteId` with `role`, signed in on server A; `email` signs them in again. */
async function member(siteId: string, role: 'admin' | 'editor' | 'viewer') {
  const email = `${role}-${unique()}@revoke.test`;
  const user = await superadmin.createUser({ email, name: `The ${role}`, password: PASSWORD });
  await superadmin.addMember(siteId, user.id, role);
  return { userId: user.id, email, client: await ApiClient.signIn(serverA, email, PASSWORD) };
}

/** A site with an admin whose socket on server B keeps watching it after the other person's access ended. */
async function watchedSite() {
  const siteId = await superadmin.createSite(`Revoke ${unique()}`);
  const admin = await member(siteId, 'admin');
  const observer = await watchSite(sockets, serverB, admin.client.token, siteId);
  return { siteId, admin, observer };
}

/** Writes a site event through server A after the change and answers its seq, once the observer on B has it. */
async function eventAfterTheChange(siteId: string, writer: ApiClient, observer: TestSocket): Promise<number> {
  const name = `after_${unique()}`;
  await writer.createCollection(siteId, { name });
  const event = await observer.waitFor((recorded) => recorded.name === 'content-changed' && recorded.payload.collection === name);
  return event.payload.seq;
}

describe('access ended over REST on server A', () => {
  it('DELETE /members: the member’s socket for the site on server B is disconnected and gets nothing after', async () => {
    const { siteId, admin, observer } = await watchedSite();
    const editor = await member(siteId, 'editor');
    const revoked = await watchSite(sockets, serverB, editor.client.token, siteId);

    await admin.client.expect(204, 'DELETE', `/members/${editor.userId}`, { siteId });
    await expectDisconnectedWithin(revoked, Date.now(), 'removed member');
    expectNoEventAfter(revoked, await eventAfterTheChange(siteId, admin.client, observer));
  });

  it('PUT /members that takes a capability away: the member’s socket on server B is disconnected and gets nothing after', async () => {
    const { siteId, admin, observer } = await watchedSite();
    const editor = await member(siteId, 'editor');
    const revoked = await watchSite(sockets, serverB, editor.client.token, siteId);

    await admin.client.expect(200, 'PUT', `/members/${editor.userId}`, { siteId, body: { role: 'viewer' } });
    await expectDisconnectedWithin(revoked, Date.now(), 'editor made viewer');
    expectNoEventAfter(revoked, await eventAfterTheChange(siteId, admin.client, observer));
  });

  it("DELETE /sites: every socket of the site on server B is disconnected, the superadmin's too", async () => {
    const name = `Doomed ${unique()}`;
    const siteId = await superadmin.createSite(name);
    const editor = await member(siteId, 'editor');
    const revoked = [
      await watchSite(sockets, serverB, editor.client.token, siteId),
      await watchSite(sockets, serverB, superadmin.token, siteId),
    ];

    await superadmin.expect(204, 'DELETE', `/sites/${siteId}?confirm=${encodeURIComponent(name)}`);
    const changedAt = Date.now();
    await Promise.all(revoked.map((socket, index) => expectDisconnectedWithin(socket, changedAt, `socket ${index} of the deleted site`)));
  });

  it('DELETE /users: all of the user’s sockets, in every site and on both servers, are disconnected and get nothing after', async () => {
    const first = await watchedSite();
    const second = await watchedSite();
    const editor = await member(first.siteId, 'editor');
    await superadmin.addMember(second.siteId, editor.userId, 'editor');
    const revoked = [
      await watchSite(sockets, serverB, editor.client.token, first.siteId),
      await watchSite(sockets, serverA, editor.client.token, second.siteId),
    ];

    await superadmin.expect(204, 'DELETE', `/users/${editor.userId}`);
    const changedAt = Date.now();
    await Promise.all(revoked.map((socket, index) => expectDisconnectedWithin(socket, changedAt, `socket ${index} of the deleted user`)));
    expectNoEventAfter(revoked[0]!, await eventAfterTheChange(first.siteId, first.admin.client, first.observer));
    expectNoEventAfter(revoked[1]!, await eventAfterTheChange(second.siteId, second.admin.client, second.observer));
  });

  it('POST /auth/logout: the session’s sockets on server B are disconnected and get nothing after', async () => {
    const { siteId, admin, observer } = await watchedSite();
    const editor = await member(siteId, 'editor');
    const revoked = await watchSite(sockets, serverB, editor.client.token, siteId);

    await editor.client.expect(204, 'POST', '/auth/logout');
    await expectDisconnectedWithin(revoked, Date.now(), 'logged-out session');
    expectNoEventAfter(revoked, await eventAfterTheChange(siteId, admin.client, observer));
  });

  it("PATCH /users/:id with a new password: the user's other sessions' sockets on server B are disconnected and get nothing after", async () => {
    const { siteId, admin, observer } = await watchedSite();
    const editor = await member(siteId, 'editor');
    const otherSession = await ApiClient.signIn(serverB, editor.email, PASSWORD);
    const revoked = await watchSite(sockets, serverB, otherSession.token, siteId);

    await editor.client.expect(200, 'PATCH', `/users/${editor.userId}`, {
      body: { password: 'a-new-password-2', currentPassword: PASSWORD },
    });
    await expectDisconnectedWithin(revoked, Date.now(), "another session's socket after a password change");
    expectNoEventAfter(revoked, await eventAfterTheChange(siteId, admin.client, observer));
    expect((await otherSession.request('GET', '/auth/me')).status).toBe(401);
  });
});

// POST /users, PATCH/DELETE /users/:id and GET /users?email= over HTTP.
import { UserListResponse, UserResponse } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, startTestServer, type TestServer, withoutRequestId } from '../../test-support/test-server.js';

let server: TestServer;
let siteId: string;

beforeAll(async () => {
  server = await startTestServer('users-router');
  siteId = await server.createSite('Users site');
});
afterAll(async () => server?.close());

describe('POST /users', () => {
  it('creates a user (201) who can then sign in, and never a superadmin', async () => {
    const response = await server.request('POST', '/users', {
      token: server.adminToken,
      body: { email: ' New.Person@Example.TEST ', password: 'long-enough', name: ' New Person ' },
    });
    expect(response.status).toBe(201);
    const { data } = UserResponse.parse(response.body);
    expect(data).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      email: 'new.person@example.test',
      name: 'New Person',
      isSuperadmin: false,
    });
    expect(response.body.data).not.toHaveProperty('passwordHash');
    await expect(server.login('new.person@example.test', 'long-enough')).resolves.toEqual(expect.any(String));
  });

  it('answers 409 for an email that is taken, whatever its case', async () => {
    const body = { email: 'twice@example.test', password: 'long-enough', name: 'Twice' };
    expect((await server.request('POST', '/users', { token: server.adminToken, body })).status).toBe(201);
    const again = await server.request('POST', '/users', { token: server.adminToken, body: { ...body, email: 'TWICE@example.test' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
  });

  it.each([
    ['a malformed email', { email: 'nope', password: 'long-enough', name: 'A' }, 'email'],
    ['a short password', { email: 'short@example.test', password: 'short', name: 'A' }, 'password'],
    ['an empty name', { email: 'noname@example.test', password: 'long-enough', name: '   ' }, 'name'],
    ['a missing name', { email: 'noname@example.test', password: 'long-enough' }, 'name'],
    [
      'an attempt to become superadmin',
      { email: 'sneaky@example.test', password: 'long-enough', name: 'A', isSuperadmin: true },
      'isSuperadmin',
    ],
  ])('answers 400 for %s', async (_label, body, path) => {
    const response = await server.request('POST', '/users', { token: server.adminToken, body });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toContainEqual({ path, message: expect.any(String) });
  });

  it('answers 403 to anyone but a superadmin, even a site admin', async () => {
    const admin = await server.createMember({ siteId, role: 'admin' });
    const response = await server.request('POST', '/users', {
      token: admin.token,
      siteId,
      body: { email: 'x@example.test', password: 'long-enough', name: 'X' },
    });
    expect(response.status).toBe(403);
  });

  it('answers 401 without credentials', async () => {
    expect((await server.request('POST', '/users', { body: { email: 'x@example.test', password: 'long-enough', name: 'X' } })).status).toBe(
      401,
    );
  });
});

describe('GET /users', () => {
  it('finds a user by email for a superadmin, case-insensitively, with meta', async () => {
    const response = await server.request('GET', `/users?email=${encodeURIComponent(ADMIN_EMAIL.toUpperCase())}`, {
      token: server.adminToken,
    });
    expect(response.status).toBe(200);
    const body = UserListResponse.parse(response.body);
    expect(body.data.map((user) => user.email)).toEqual([ADMIN_EMAIL]);
    expect(body.meta).toEqual({ total: 1, limit: 25, offset: 0 });
  });

  it('lists every user for a superadmin without an email, paged', async () => {
    const response = await server.request('GET', '/users?limit=1&offset=0&unknown=ignored', { token: server.adminToken });
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(1);
    expect(response.body.meta.total).toBeGreaterThan(1);
  });

  it('lets a member holding users:write look a user up in the name of their site', async () => {
    const admin = await server.createMember({ siteId, role: 'admin' });
    const other = await server.createMember({});
    const response = await server.request('GET', `/users?email=${encodeURIComponent(other.email)}`, { token: admin.token, siteId });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([{ id: other.id, email: other.email, name: expect.any(String), isSuperadmin: false }]);
    const nobody = await server.request('GET', '/users?email=nobody@example.test', { token: admin.token, siteId });
    expect(nobody.body).toEqual({ data: [], meta: { total: 0, limit: 25, offset: 0 } });
  });

  it('refuses a member without users:write (403), outside their site (403), without the header (400) or without an email (400)', async () => {
    const editor = await server.createMember({ siteId, role: 'editor' });
    const admin = await server.createMember({ siteId, role: 'admin' });
    const otherSite = await server.createSite();
    const email = `?email=${encodeURIComponent(ADMIN_EMAIL)}`;
    expect((await server.request('GET', `/users${email}`, { token: editor.token, siteId })).status).toBe(403);
    const notMember = await server.request('GET', `/users${email}`, { token: admin.token, siteId: otherSite });
    const malformed = await server.request('GET', `/users${email}`, { token: admin.token, siteId: 'not-an-id' });
    expect(notMember.status).toBe(403);
    expect(withoutRequestId(malformed.body)).toEqual(withoutRequestId(notMember.body));
    expect((await server.request('GET', `/users${email}`, { token: admin.token })).status).toBe(400);
    const noEmail = await server.request('GET', '/users', { token: admin.token, siteId });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.error.details).toEqual([{ path: 'email', message: 'Required' }]);
  });

  it('answers 400 for a malformed email or limit', async () => {
    expect((await server.request('GET', '/users?email=nope', { token: server.adminToken })).status).toBe(400);
    expect((await server.request('GET', '/users?limit=101', { token: server.adminToken })).status).toBe(400);
  });

  it('answers 401 without credentials', async () => {
    expect((await server.request('GET', '/users')).status).toBe(401);
  });
});

describe('PATCH /users/:id', () => {
  it('lets a superadmin rename anyone and set their password (200), which ends all their sessions', async () => {
    const user = await server.createMember({ siteId });
    const renamed = await server.request('PATCH', `/users/${user.id}`, { token: server.adminToken, body: { name: ' Renamed ' } });
    expect(renamed.status).toBe(200);
    expect(UserResponse.parse(renamed.body).data).toEqual({ id: user.id, email: user.email, name: 'Renamed', isSuperadmin: false });
    expect((await server.request('GET', '/auth/me', { token: user.token })).status).toBe(200);

    const reset = await server.request('PATCH', `/users/${user.id}`, { token: server.adminToken, body: { password: 'brand-new-pass' } });
    expect(reset.status).toBe(200);
    expect((await server.request('GET', '/auth/me', { token: user.token })).status).toBe(401);
    await expect(server.login(user.email, 'brand-new-pass')).resolves.toEqual(expect.any(String));
    await expect(server.login(user.email, 'member-password')).rejects.toThrow(/401/);
  });

  it('lets a user change their own name, and their password with the current one, ending only their other sessions', async () => {
    const user = await server.createMember({});
    const other = await server.login(user.email, 'member-password');
    const named = await server.request('PATCH', `/users/${user.id}`, { token: user.token, body: { name: 'Me Myself' } });
    expect(named.status).toBe(200);
    expect(named.body.data.name).toBe('Me Myself');

    const missing = await server.request('PATCH', `/users/${user.id}`, { token: user.token, body: { password: 'another-pass' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([{ path: 'currentPassword', message: 'Required' }]);
    const wrong = await server.request('PATCH', `/users/${user.id}`, {
      token: user.token,
      body: { password: 'another-pass', currentPassword: 'not-the-password' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toEqual([{ path: 'currentPassword', message: expect.any(String) }]);
    expect((await server.request('GET', '/auth/me', { token: other })).status).toBe(200);

    const changed = await server.request('PATCH', `/users/${user.id}`, {
      token: user.token,
      body: { password: 'another-pass', currentPassword: 'member-password' },
    });
    expect(changed.status).toBe(200);
    expect((await server.request('GET', '/auth/me', { token: user.token })).status).toBe(200);
    expect((await server.request('GET', '/auth/me', { token: other })).status).toBe(401);
    await expect(server.login(user.email, 'another-pass')).resolves.toEqual(expect.any(String));
  });

  it('answers 403 to someone changing another account, even a site admin, whether or not it exists', async () => {
    const admin = await server.createMember({ siteId, role: 'admin' });
    const victim = await server.createMember({ siteId });
    const response = await server.request('PATCH', `/users/${victim.id}`, { token: admin.token, siteId, body: { name: 'Pwned' } });
    expect(response.status).toBe(403);
    const unknown = await server.request('PATCH', '/users/0123456789abcdef01234567', { token: admin.token, body: { name: 'X' } });
    expect(unknown.status).toBe(403);
    const after = await server.request('GET', `/users?email=${encodeURIComponent(victim.email)}`, { token: server.adminToken });
    expect(after.body.data[0].name).not.toBe('Pwned');
  });

  it.each([
    ['an empty body', {}, 'name'],
    ['a short password', { password: 'short' }, 'password'],
    ['an empty name', { name: '  ' }, 'name'],
    ['an attempt to become superadmin', { name: 'A', isSuperadmin: true }, 'isSuperadmin'],
    ['a changed email', { email: 'other@example.test' }, 'email'],
  ])('answers 400 for %s', async (_label, body, path) => {
    const user = await server.createMember({});
    const response = await server.request('PATCH', `/users/${user.id}`, { token: user.token, body });
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
  });

  it('answers 404 to a superadmin for an unknown or malformed id, and 401 without credentials', async () => {
    expect(
      (await server.request('PATCH', '/users/0123456789abcdef01234567', { token: server.adminToken, body: { name: 'X' } })).status,
    ).toBe(404);
    expect((await server.request('PATCH', '/users/nope', { token: server.adminToken, body: { name: 'X' } })).status).toBe(404);
    expect((await server.request('PATCH', '/users/0123456789abcdef01234567', { body: { name: 'X' } })).status).toBe(401);
  });
});

describe('DELETE /users/:id', () => {
  it('removes the account (204): its sessions end, its memberships go, it cannot sign in', async () => {
    const user = await server.createMember({ siteId, role: 'editor' });
    const announced: unknown[] = [];
    const { events } = server.composed.services;
    const stops = [
      events.on('session-revoked', (event) => announced.push(['session-revoked', event.userId])),
      events.on('membership-removed', (event) => announced.push(['membership-removed', event.siteId, event.userId])),
    ];
    const response = await server.request('DELETE', `/users/${user.id}`, { token: server.adminToken });
    for (const stop of stops) stop();
    expect(response.status).toBe(204);
    // What the socket server listens to, to disconnect the user's sockets in every process.
    expect(announced).toEqual([
      ['session-revoked', user.id],
      ['membership-removed', siteId, user.id],
    ]);
    expect((await server.request('GET', '/auth/me', { token: user.token })).status).toBe(401);
    await expect(server.login(user.email, 'member-password')).rejects.toThrow(/401/);
    const members = await server.request('GET', '/members?limit=100', { token: server.adminToken, siteId });
    expect(members.body.data.map((member: { userId: string }) => member.userId)).not.toContain(user.id);
    const memberships = await server.composed.stores.userMemberships.listForUser(user.id);
    expect(memberships).toEqual([]);
    const lookup = await server.request('GET', `/users?email=${encodeURIComponent(user.email)}`, { token: server.adminToken });
    expect(lookup.body.data).toEqual([]);
  });

  it('answers 400 to a superadmin removing themself, 404 for an unknown user, 403 to anyone else, 401 without credentials', async () => {
    const me = (await server.request('GET', '/auth/me', { token: server.adminToken })).body.data.user;
    const self = await server.request('DELETE', `/users/${me.id}`, { token: server.adminToken });
    expect(self.status).toBe(400);
    expect((await server.request('GET', '/auth/me', { token: server.adminToken })).status).toBe(200);
    expect((await server.request('DELETE', '/users/0123456789abcdef01234567', { token: server.adminToken })).status).toBe(404);
    const admin = await server.createMember({ siteId, role: 'admin' });
    const victim = await server.createMember({ siteId });
    expect((await server.request('DELETE', `/users/${victim.id}`, { token: admin.token, siteId })).status).toBe(403);
    expect((await server.request('DELETE', `/users/${admin.id}`, { token: admin.token })).status).toBe(403);
    expect((await server.request('DELETE', `/users/${victim.id}`)).status).toBe(401);
    expect((await server.request('GET', '/auth/me', { token: victim.token })).status).toBe(200);
  });
});

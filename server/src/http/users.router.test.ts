// POST /users and GET /users?email= over HTTP.
import { UserListResponse, UserResponse } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, startTestServer, type TestServer, withoutRequestId } from '../testing/test-server.js';

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

// POST /members, PUT/DELETE /members/:userId and GET /members over HTTP.
import { AddMemberResponse, MemberListResponse, MemberResponse } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, startTestServer, type TestServer, withoutRequestId } from '../../test-support/test-server.js';

let server: TestServer;
let siteId: string;
let otherSiteId: string;
let admin: { id: string; token: string };

beforeAll(async () => {
  server = await startTestServer('members-router');
  siteId = await server.createSite('Members site');
  otherSiteId = await server.createSite('Other site');
  admin = await server.createMember({ siteId, role: 'admin' });
});
afterAll(async () => server?.close());

describe('PUT /members/:userId', () => {
  it('adds a member with the preset ∪ extra capabilities (200), then replaces the membership', async () => {
    const user = await server.createMember({});
    const added = await server.request('PUT', `/members/${user.id}`, {
      token: admin.token,
      siteId,
      body: { role: 'viewer', capabilities: ['content:write'] },
    });
    expect(added.status).toBe(200);
    const { data } = MemberResponse.parse(added.body);
    expect(data).toMatchObject({
      userId: user.id,
      role: 'viewer',
      capabilities: ['schema:read', 'content:read', 'content:write'],
      extraCapabilities: ['content:write'],
    });
    expect(data.user).toEqual({ id: user.id, email: user.email, name: expect.any(String), isSuperadmin: false });

    const replaced = await server.request('PUT', `/members/${user.id}`, { token: admin.token, siteId, body: { role: 'editor' } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data).toMatchObject({
      role: 'editor',
      capabilities: ['schema:read', 'content:read', 'content:write'],
      extraCapabilities: [],
    });
    const me = await server.request('GET', '/auth/me', { token: user.token });
    expect(me.body.data.sites).toEqual([
      { id: siteId, name: 'Members site', role: 'editor', capabilities: ['schema:read', 'content:read', 'content:write'] },
    ]);
  });

  it('answers 400 for * given to a user who is not a superadmin, and accepts it for a superadmin', async () => {
    const user = await server.createMember({});
    const refused = await server.request('PUT', `/members/${user.id}`, {
      token: server.adminToken,
      siteId,
      body: { role: 'admin', capabilities: ['*'] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ path: 'capabilities', message: expect.any(String) }]);
    const superadmin = (await server.request('GET', `/users?email=${encodeURIComponent(ADMIN_EMAIL)}`, { token: server.adminToken })).body
      .data[0];
    const accepted = await server.request('PUT', `/members/${superadmin.id}`, {
      token: server.adminToken,
      siteId: otherSiteId,
      body: { role: 'viewer', capabilities: ['*'] },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.capabilities).toContain('*');
  });

  it.each([
    ['an unknown role', { role: 'owner' }, 'role'],
    ['a missing role', {}, 'role'],
    ['an unknown capability', { role: 'viewer', capabilities: ['content:delete'] }, 'capabilities.0'],
    ['capabilities of the wrong type', { role: 'viewer', capabilities: 'content:write' }, 'capabilities'],
  ])('answers 400 for %s', async (_label, body, path) => {
    const user = await server.createMember({});
    const response = await server.request('PUT', `/members/${user.id}`, { token: admin.token, siteId, body });
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
  });

  it('answers 403 when a member would grant capabilities they do not hold', async () => {
    const userAdmin = await server.createMember({ siteId, role: 'viewer', capabilities: ['users:write'] });
    const user = await server.createMember({});
    const escalation = await server.request('PUT', `/members/${user.id}`, { token: userAdmin.token, siteId, body: { role: 'admin' } });
    expect(escalation.status).toBe(403);
    const self = await server.request('PUT', `/members/${userAdmin.id}`, {
      token: userAdmin.token,
      siteId,
      body: { role: 'editor', capabilities: ['users:write'] },
    });
    expect(self.status).toBe(403);
    const within = await server.request('PUT', `/members/${user.id}`, { token: userAdmin.token, siteId, body: { role: 'viewer' } });
    expect(within.status).toBe(200);
  });

  it('answers 403 with one body for an unknown user id and a malformed one', async () => {
    const unknown = await server.request('PUT', '/members/0123456789abcdef01234567', {
      token: admin.token,
      siteId,
      body: { role: 'viewer' },
    });
    const malformed = await server.request('PUT', '/members/not-an-id', { token: admin.token, siteId, body: { role: 'viewer' } });
    expect(unknown.status).toBe(403);
    expect(withoutRequestId(malformed.body)).toEqual(withoutRequestId(unknown.body));
  });

  it('answers 403 without users:write, 403 in a site the caller is not in, 400 without X-Site-Id, 401 without credentials', async () => {
    const editor = await server.createMember({ siteId, role: 'editor' });
    const user = await server.createMember({});
    const body = { role: 'viewer' };
    expect((await server.request('PUT', `/members/${user.id}`, { token: editor.token, siteId, body })).status).toBe(403);
    expect((await server.request('PUT', `/members/${user.id}`, { token: admin.token, siteId: otherSiteId, body })).status).toBe(403);
    expect((await server.request('PUT', `/members/${user.id}`, { token: admin.token, body })).status).toBe(400);
    expect((await server.request('PUT', `/members/${user.id}`, { siteId, body })).status).toBe(401);
  });
});

describe('DELETE /members/:userId', () => {
  it('removes the membership (204): the user loses the site and the removal is announced', async () => {
    const user = await server.createMember({ siteId, role: 'editor' });
    const removed: Array<{ siteId: string; userId: string }> = [];
    const unsubscribe = server.composed.services.events.on('membership-removed', (event) => removed.push(event));
    const response = await server.request('DELETE', `/members/${user.id}`, { token: admin.token, siteId });
    unsubscribe();
    expect(response.status).toBe(204);
    expect(response.body).toBeUndefined();
    expect(removed).toEqual([{ siteId, userId: user.id }]);
    expect((await server.request('GET', '/collections', { token: user.token, siteId })).status).toBe(403);
    expect((await server.request('GET', '/sites', { token: user.token })).body.data).toEqual([]);
  });

  it("answers 403 with one body for another site's member, a non-member, an unknown id and a malformed id", async () => {
    const elsewhere = await server.createMember({ siteId: otherSiteId, role: 'viewer' });
    const outsider = await server.createMember({});
    const responses = await Promise.all(
      [elsewhere.id, outsider.id, 'ffffffffffffffffffffffff', 'zzz'].map((id) =>
        server.request('DELETE', `/members/${id}`, { token: admin.token, siteId }),
      ),
    );
    for (const response of responses) expect(response.status).toBe(403);
    const bodies = responses.map((response) => withoutRequestId(response.body));
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    // The other site's membership is untouched.
    expect((await server.request('GET', '/collections', { token: elsewhere.token, siteId: otherSiteId })).status).toBe(200);
  });

  it('answers 403 without users:write and 401 without credentials', async () => {
    const viewer = await server.createMember({ siteId, role: 'viewer' });
    expect((await server.request('DELETE', `/members/${admin.id}`, { token: viewer.token, siteId })).status).toBe(403);
    expect((await server.request('DELETE', `/members/${admin.id}`, { siteId })).status).toBe(401);
  });
});

describe('changing a member who holds more than the caller', () => {
  it('is refused (403) for a member with users:write but fewer capabilities than the admin they target, on PUT and DELETE', async () => {
    const site = await server.createSite('Demotion');
    const target = await server.createMember({ siteId: site, role: 'admin' });
    const manager = await server.createMember({ siteId: site, role: 'editor', capabilities: ['users:write', 'approvals:decide'] });
    const demote = await server.request('PUT', `/members/${target.id}`, { token: manager.token, siteId: site, body: { role: 'viewer' } });
    expect(demote.status).toBe(403);
    expect(demote.body.error.code).toBe('FORBIDDEN');
    expect((await server.request('DELETE', `/members/${target.id}`, { token: manager.token, siteId: site })).status).toBe(403);
    const still = await server.request('GET', '/auth/me', { token: target.token });
    expect(still.body.data.sites).toEqual([expect.objectContaining({ id: site, role: 'admin' })]);
    // A member whose capabilities the manager all holds may still be changed and removed.
    const editor = await server.createMember({ siteId: site, role: 'editor' });
    expect(
      (await server.request('PUT', `/members/${editor.id}`, { token: manager.token, siteId: site, body: { role: 'viewer' } })).status,
    ).toBe(200);
    expect((await server.request('DELETE', `/members/${editor.id}`, { token: manager.token, siteId: site })).status).toBe(204);
  });

  it("leaves a superadmin's membership to superadmins: an admin gets 403, a superadmin 200", async () => {
    const site = await server.createSite('Superadmin membership');
    const siteAdmin = await server.createMember({ siteId: site, role: 'admin' });
    const superadmin = (await server.request('GET', `/users?email=${encodeURIComponent(ADMIN_EMAIL)}`, { token: server.adminToken })).body
      .data[0];
    const put = (token: string, role: string) =>
      server.request('PUT', `/members/${superadmin.id}`, { token, siteId: site, body: { role } });
    expect((await put(server.adminToken, 'editor')).status).toBe(200);
    expect((await put(siteAdmin.token, 'viewer')).status).toBe(403);
    expect((await server.request('DELETE', `/members/${superadmin.id}`, { token: siteAdmin.token, siteId: site })).status).toBe(403);
    expect((await put(server.adminToken, 'viewer')).status).toBe(200);
    expect((await server.request('DELETE', `/members/${superadmin.id}`, { token: server.adminToken, siteId: site })).status).toBe(204);
  });
});

describe('GET /members', () => {
  it("lists the site's members with user, role and effective capabilities, paged", async () => {
    const site = await server.createSite('Listed');
    const first = await server.createMember({ siteId: site, role: 'admin' });
    const second = await server.createMember({ siteId: site, role: 'viewer', capabilities: ['approvals:decide'] });
    await server.createMember({ siteId: otherSiteId, role: 'viewer' });
    const response = await server.request('GET', '/members', { token: first.token, siteId: site });
    expect(response.status).toBe(200);
    const body = MemberListResponse.parse(response.body);
    expect(body.meta).toEqual({ total: 2, limit: 25, offset: 0 });
    expect(body.data.map((member) => [member.user.id, member.role, member.capabilities])).toEqual([
      [first.id, 'admin', ['schema:read', 'schema:write', 'content:read', 'content:write', 'users:write', 'approvals:decide']],
      [second.id, 'viewer', ['schema:read', 'content:read', 'approvals:decide']],
    ]);
    const page = await server.request('GET', '/members?limit=1&offset=1', { token: first.token, siteId: site });
    expect(page.body.data.map((member: { userId: string }) => member.userId)).toEqual([second.id]);
  });

  it('answers 403 without users:write', async () => {
    const viewer = await server.createMember({ siteId, role: 'viewer' });
    expect((await server.request('GET', '/members', { token: viewer.token, siteId })).status).toBe(403);
  });
});

describe('POST /members', () => {
  it('creates an account for an unknown email and adds it (201), answering its password once', async () => {
    const response = await server.request('POST', '/members', {
      token: admin.token,
      siteId,
      body: { email: ' Fresh.Face@Example.TEST ', name: 'Fresh Face', role: 'editor' },
    });
    expect(response.status).toBe(201);
    const { data } = AddMemberResponse.parse(response.body);
    expect(data.member).toMatchObject({
      role: 'editor',
      user: { email: 'fresh.face@example.test', name: 'Fresh Face', isSuperadmin: false },
      capabilities: ['schema:read', 'content:read', 'content:write'],
    });
    expect(data.password).toEqual(expect.stringMatching(/^.{12,}$/));
    const token = await server.login('fresh.face@example.test', data.password!);
    const me = await server.request('GET', '/auth/me', { token });
    expect(me.body.data.sites).toEqual([{ id: siteId, name: 'Members site', role: 'editor', capabilities: data.member.capabilities }]);
  });

  it('adds an existing account without a password (201), and answers 409 when they are already a member', async () => {
    const user = await server.createMember({});
    const body = { email: user.email.toUpperCase(), role: 'viewer', capabilities: ['content:write'] };
    const added = await server.request('POST', '/members', { token: admin.token, siteId, body });
    expect(added.status).toBe(201);
    expect(added.body.data).toEqual({ member: expect.objectContaining({ userId: user.id, role: 'viewer' }) });
    expect(added.body.data.member.extraCapabilities).toEqual(['content:write']);
    const again = await server.request('POST', '/members', { token: admin.token, siteId, body: { ...body, role: 'admin' } });
    expect(again.status).toBe(409);
    expect((await server.request('GET', '/auth/me', { token: user.token })).body.data.sites[0].role).toBe('viewer');
  });

  it.each([
    ['a missing name for a new account', { email: 'nameless@example.test', role: 'viewer' }, 'name'],
    ['a malformed email', { email: 'nope', name: 'N', role: 'viewer' }, 'email'],
    ['an unknown role', { email: 'role@example.test', name: 'N', role: 'owner' }, 'role'],
    ['* for a new account', { email: 'star@example.test', name: 'N', role: 'viewer', capabilities: ['*'] }, 'capabilities'],
    ['a password in the body', { email: 'pw@example.test', name: 'N', role: 'viewer', password: 'long-enough' }, 'password'],
  ])('answers 400 for %s, creating no account', async (_label, body, path) => {
    const response = await server.request('POST', '/members', { token: server.adminToken, siteId, body });
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
    if (typeof body.email === 'string' && body.email.includes('@')) {
      const lookup = await server.request('GET', `/users?email=${encodeURIComponent(body.email)}`, { token: server.adminToken });
      expect(lookup.body.data).toEqual([]);
    }
  });

  it('answers 403 to a member granting what they do not hold (and creates no account), or without users:write', async () => {
    const delegate = await server.createMember({ siteId, role: 'viewer', capabilities: ['users:write'] });
    const refused = await server.request('POST', '/members', {
      token: delegate.token,
      siteId,
      body: { email: 'too-much@example.test', name: 'Too Much', role: 'admin' },
    });
    expect(refused.status).toBe(403);
    expect((await server.request('GET', '/users?email=too-much@example.test', { token: server.adminToken })).body.data).toEqual([]);
    const allowed = await server.request('POST', '/members', {
      token: delegate.token,
      siteId,
      body: { email: 'just-right@example.test', name: 'Just Right', role: 'viewer' },
    });
    expect(allowed.status).toBe(201);

    const editor = await server.createMember({ siteId, role: 'editor' });
    const body = { email: 'nope-editor@example.test', name: 'N', role: 'viewer' };
    expect((await server.request('POST', '/members', { token: editor.token, siteId, body })).status).toBe(403);
    expect((await server.request('POST', '/members', { siteId, body })).status).toBe(401);
  });

  it('adds only in the X-Site-Id site: another site stays untouched, and an admin elsewhere is refused', async () => {
    const response = await server.request('POST', '/members', {
      token: admin.token,
      siteId: otherSiteId,
      body: { email: 'wrong-site@example.test', name: 'W', role: 'viewer' },
    });
    expect(response.status).toBe(403);
    const added = await server.request('POST', '/members', {
      token: admin.token,
      siteId,
      body: { email: 'one-site@example.test', name: 'One', role: 'viewer' },
    });
    const token = await server.login('one-site@example.test', added.body.data.password);
    expect((await server.request('GET', '/auth/me', { token })).body.data.sites.map((site: { id: string }) => site.id)).toEqual([siteId]);
  });

  it('never stores the one-time password for a replay: the same Idempotency-Key answers the member alone', async () => {
    const request = {
      token: admin.token,
      siteId,
      headers: { 'idempotency-key': 'add-gina-1' },
      body: { email: 'gina@example.test', name: 'Gina', role: 'viewer' },
    };
    const first = await server.request('POST', '/members', request);
    expect(first.status).toBe(201);
    const password = first.body.data.password as string;
    expect(password).toEqual(expect.any(String));
    const replay = await server.request('POST', '/members', request);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual({ data: { member: first.body.data.member } });
    const records = await server.composed.stores.models.idempotency.collection.find({}).toArray();
    expect(records.length).toBeGreaterThan(0);
    expect(JSON.stringify(records)).not.toContain(password);
  });
});

describe('an account created by one site’s admin, added by another site’s', () => {
  it('answers 409 until its owner sets their own password: the first site’s admin never signs in inside the other site', async () => {
    const siteA = await server.createSite('Victim site');
    const siteB = await server.createSite('Attacker site');
    const adminA = await server.createMember({ siteId: siteA, role: 'admin' });
    const adminB = await server.createMember({ siteId: siteB, role: 'admin' });
    const email = 'ceo@victim.test';

    const planted = await server.request('POST', '/members', {
      token: adminB.token,
      siteId: siteB,
      body: { email, name: 'CEO', role: 'viewer' },
    });
    expect(planted.status).toBe(201);
    const knownPassword = planted.body.data.password as string;
    const userId = planted.body.data.member.userId as string;

    const added = await server.request('POST', '/members', { token: adminA.token, siteId: siteA, body: { email, role: 'admin' } });
    expect(added.status).toBe(409);
    expect(added.body.error.code).toBe('CONFLICT');
    const put = await server.request('PUT', `/members/${userId}`, { token: adminA.token, siteId: siteA, body: { role: 'admin' } });
    expect(put.status).toBe(409);
    // Site B's admin, who knows the password, still has no way into site A.
    const asPlanter = await server.login(email, knownPassword);
    expect((await server.request('GET', '/auth/me', { token: asPlanter })).body.data.sites.map((site: { id: string }) => site.id)).toEqual([
      siteB,
    ]);
    expect((await server.request('GET', '/collections', { token: asPlanter, siteId: siteA })).status).toBe(403);

    // The owner signs in and sets their own password: the account is theirs, and site A may add it.
    const changed = await server.request('PATCH', `/users/${userId}`, {
      token: asPlanter,
      body: { password: 'the-owners-own-password', currentPassword: knownPassword },
    });
    expect(changed.status).toBe(200);
    const now = await server.request('POST', '/members', { token: adminA.token, siteId: siteA, body: { email, role: 'viewer' } });
    expect(now.status).toBe(201);
  });

  it('stays addable by a superadmin, and by the site that created it', async () => {
    const siteA = await server.createSite('Superadmin site');
    const siteB = await server.createSite('Creator site');
    const adminB = await server.createMember({ siteId: siteB, role: 'admin' });
    const email = 'held@example.test';
    const planted = await server.request('POST', '/members', {
      token: adminB.token,
      siteId: siteB,
      body: { email, name: 'Held', role: 'viewer' },
    });
    const userId = planted.body.data.member.userId as string;
    expect((await server.request('DELETE', `/members/${userId}`, { token: adminB.token, siteId: siteB })).status).toBe(204);
    expect((await server.request('POST', '/members', { token: adminB.token, siteId: siteB, body: { email, role: 'viewer' } })).status).toBe(
      201,
    );
    expect(
      (await server.request('POST', '/members', { token: server.adminToken, siteId: siteA, body: { email, role: 'viewer' } })).status,
    ).toBe(201);
  });
});

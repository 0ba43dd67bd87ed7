// POST /sites and GET /sites over HTTP.
import { SiteListResponse, SiteResponse } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer('sites-router');
});
afterAll(async () => server?.close());

describe('POST /sites', () => {
  it('creates a site for a superadmin (201, { id, name })', async () => {
    const response = await server.request('POST', '/sites', { token: server.adminToken, body: { name: '  Marketing  ' } });
    expect(response.status).toBe(201);
    expect(SiteResponse.parse(response.body).data).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'Marketing' });
  });

  it.each([
    ['a missing name', {}],
    ['an empty name', { name: ' ' }],
    ['a name of the wrong type', { name: 42 }],
    ['an unknown field', { name: 'A', owner: 'me' }],
  ])('answers 400 for %s', async (_label, body) => {
    const response = await server.request('POST', '/sites', { token: server.adminToken, body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('answers 403 to a member who is not a superadmin', async () => {
    const siteId = await server.createSite();
    const admin = await server.createMember({ siteId, role: 'admin' });
    expect((await server.request('POST', '/sites', { token: admin.token, body: { name: 'Mine' } })).status).toBe(403);
  });

  it('answers 401 without credentials', async () => {
    expect((await server.request('POST', '/sites', { body: { name: 'X' } })).status).toBe(401);
  });
});

describe('GET /sites', () => {
  it("lists only the caller's sites to a member, and every site to a superadmin", async () => {
    const first = await server.createSite('First');
    const second = await server.createSite('Second');
    await server.createSite('Not theirs');
    const member = await server.createMember({ siteId: first, role: 'viewer' });
    await server.request('PUT', `/members/${member.id}`, { token: server.adminToken, siteId: second, body: { role: 'editor' } });

    const mine = await server.request('GET', '/sites', { token: member.token });
    expect(mine.status).toBe(200);
    const body = SiteListResponse.parse(mine.body);
    expect(body.data).toEqual([
      { id: first, name: 'First' },
      { id: second, name: 'Second' },
    ]);
    expect(body.meta).toEqual({ total: 2, limit: 25, offset: 0 });

    const all = await server.request('GET', '/sites?limit=100', { token: server.adminToken });
    expect(all.body.data.length).toBe(all.body.meta.total);
    expect(all.body.data.map((site: { name: string }) => site.name)).toContain('Not theirs');
  });

  it('pages with limit and offset', async () => {
    const all = await server.request('GET', '/sites?limit=100', { token: server.adminToken });
    const page = await server.request('GET', '/sites?limit=1&offset=1', { token: server.adminToken });
    expect(page.body.data).toEqual([all.body.data[1]]);
    expect(page.body.meta).toEqual({ total: all.body.meta.total, limit: 1, offset: 1 });
  });

  it('answers 400 for a bad limit or offset', async () => {
    for (const query of ['limit=0', 'limit=abc', 'offset=-1', 'limit=1.5']) {
      expect((await server.request('GET', `/sites?${query}`, { token: server.adminToken })).status, query).toBe(400);
    }
  });

  it('answers 401 without credentials', async () => {
    expect((await server.request('GET', '/sites')).status).toBe(401);
  });
});

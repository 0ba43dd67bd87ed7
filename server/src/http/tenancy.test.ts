// X-Site-Id over HTTP: missing → 400; malformed, unknown or not a member → one 403; a superadmin is in every site.
// Tenancy guards the prefixes derived from the declarations: every route declared `site: true`, and any unknown path
// under them, is refused for a missing or foreign X-Site-Id before anything else (a 404 only then).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, withoutRequestId } from '../../test-support/test-server.js';
import { SITE_SCOPED_PREFIXES } from './api.router.js';
import { ROUTES } from './routes.js';

let server: TestServer;
let siteA: string;
let siteB: string;
let memberOfA: { token: string };

beforeAll(async () => {
  server = await startTestServer('tenancy');
  siteA = await server.createSite('A');
  siteB = await server.createSite('B');
  memberOfA = await server.createMember({ siteId: siteA, role: 'admin' });
});
afterAll(async () => server?.close());

describe('tenancy', () => {
  it('answers 400 when X-Site-Id is missing or blank', async () => {
    for (const headers of [{}, { 'x-site-id': '  ' }] as Record<string, string>[]) {
      const response = await server.request('GET', '/collections', { token: memberOfA.token, headers });
      expect(response.status).toBe(400);
      expect(response.body.error.details).toEqual([{ path: 'headers.x-site-id', message: 'Required' }]);
    }
  });

  it('answers 403 with one body for a site the caller is not in, an unknown site and a malformed id', async () => {
    const ids = [siteB, 'aaaaaaaaaaaaaaaaaaaaaaaa', 'not-an-id', `${siteA},${siteB}`, '{"$ne":null}'];
    const responses = await Promise.all(ids.map((siteId) => server.request('GET', '/collections', { token: memberOfA.token, siteId })));
    for (const response of responses) expect(response.status).toBe(403);
    expect(new Set(responses.map((response) => JSON.stringify(withoutRequestId(response.body)))).size).toBe(1);
  });

  it('lets a superadmin act in every site, holding *', async () => {
    for (const siteId of [siteA, siteB]) {
      const created = await server.request('POST', '/collections', { token: server.adminToken, siteId, body: { name: 'things' } });
      expect(created.status).toBe(201);
    }
    const unknown = await server.request('GET', '/collections', { token: server.adminToken, siteId: 'aaaaaaaaaaaaaaaaaaaaaaaa' });
    expect(unknown.status).toBe(403);
  });

  it('lets a member act in their own site', async () => {
    expect((await server.request('GET', '/collections', { token: memberOfA.token, siteId: siteA })).status).toBe(200);
  });
});

describe('tenancy over the declared site routes', () => {
  it('guards exactly the first segments of the routes declared site-scoped', () => {
    expect(SITE_SCOPED_PREFIXES).toEqual(['/ai', '/collections', '/items', '/members', '/trash', '/webhooks']);
  });

  it('refuses every route declared `site: true` without an X-Site-Id (400) and in a site the caller is not in (403)', async () => {
    const site = ROUTES.filter((route) => route.site);
    expect(site.length).toBeGreaterThanOrEqual(40);
    for (const route of site) {
      const path = route.path.replace(/:(\w+)/g, (_match, name: string) => (name === 'collection' || name === 'name' ? 'posts' : 'x'));
      const what = `${route.method} ${route.path}`;
      const missing = await server.request(route.method.toUpperCase(), path, { token: memberOfA.token });
      expect(missing.status, what).toBe(400);
      expect(missing.body.error.details, what).toEqual([{ path: 'headers.x-site-id', message: 'Required' }]);
      const foreign = await server.request(route.method.toUpperCase(), path, { token: memberOfA.token, siteId: siteB });
      expect(foreign.status, what).toBe(403);
    }
  }, 60_000);

  it('answers an unknown path under each site-scoped prefix 400 or 403 for a bad X-Site-Id, and 404 only in the own site', async () => {
    for (const prefix of SITE_SCOPED_PREFIXES) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const path = `${prefix}/no/such/route`;
        const what = `${method} ${path}`;
        const missing = await server.request(method, path, { token: memberOfA.token });
        expect(missing.status, what).toBe(400);
        expect(missing.body.error.details, what).toEqual([{ path: 'headers.x-site-id', message: 'Required' }]);
        expect((await server.request(method, path, { token: memberOfA.token, siteId: siteB })).status, what).toBe(403);
        expect((await server.request(method, path, { token: memberOfA.token, siteId: 'not-an-id' })).status, what).toBe(403);
        expect((await server.request(method, path, { token: memberOfA.token, siteId: siteA })).status, what).toBe(404);
      }
    }
    // Outside them, an unknown path needs no site.
    expect((await server.request('GET', '/no/such/route', { token: memberOfA.token })).status).toBe(404);
  }, 60_000);
});

// X-Site-Id over HTTP: missing → 400; malformed, unknown or not a member → one 403; a superadmin is in every site.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, withoutRequestId } from '../testing/test-server.js';

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

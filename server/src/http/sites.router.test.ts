// POST /sites, PATCH/DELETE /sites/:id and GET /sites over HTTP.
import { SiteListResponse, SiteResponse } from '@lumibase/shared';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

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

describe('PATCH /sites/:id', () => {
  it('renames a site for a superadmin (200), as its members then see it', async () => {
    const siteId = await server.createSite('Old name');
    const member = await server.createMember({ siteId, role: 'viewer' });
    const response = await server.request('PATCH', `/sites/${siteId}`, { token: server.adminToken, body: { name: '  New name ' } });
    expect(response.status).toBe(200);
    expect(SiteResponse.parse(response.body).data).toEqual({ id: siteId, name: 'New name' });
    expect((await server.request('GET', '/sites', { token: member.token })).body.data).toEqual([{ id: siteId, name: 'New name' }]);
  });

  it('answers 400 for a bad name, 404 for an unknown site, 403 to a site admin, 401 without credentials', async () => {
    const siteId = await server.createSite('Kept');
    for (const body of [{}, { name: ' ' }, { name: 'A', id: 'x' }]) {
      const response = await server.request('PATCH', `/sites/${siteId}`, { token: server.adminToken, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.details.length).toBeGreaterThan(0);
    }
    expect(
      (await server.request('PATCH', '/sites/0123456789abcdef01234567', { token: server.adminToken, body: { name: 'X' } })).status,
    ).toBe(404);
    const admin = await server.createMember({ siteId, role: 'admin' });
    expect((await server.request('PATCH', `/sites/${siteId}`, { token: admin.token, siteId, body: { name: 'Mine' } })).status).toBe(403);
    expect((await server.request('PATCH', `/sites/${siteId}`, { body: { name: 'X' } })).status).toBe(401);
    expect((await server.request('GET', '/sites', { token: admin.token })).body.data).toEqual([{ id: siteId, name: 'Kept' }]);
  });
});

describe('DELETE /sites/:id', () => {
  /** Documents carrying `siteId` in every site-scoped model registered on the connection. */
  async function countBySite(siteId: string): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const model of Object.values(server.database.connection.models)) {
      if (model.schema.path('siteId') === undefined) continue;
      counts[model.modelName] = await model.collection.countDocuments({ siteId: new Types.ObjectId(siteId) });
    }
    return counts;
  }

  it('deletes the site and everything in it (204) with its exact name, and leaves other sites alone', async () => {
    const doomed = await server.createSite('Doomed');
    const kept = await server.createSite('Kept alive');
    const member = await server.createMember({ siteId: doomed, role: 'admin' });
    for (const siteId of [doomed, kept]) {
      const posts = await server.request('POST', '/collections', {
        token: server.adminToken,
        siteId,
        body: { name: 'posts', fields: [{ name: 'title', type: 'string' }] },
      });
      expect(posts.status).toBe(201);
      expect(
        (await server.request('POST', '/items/posts', { token: server.adminToken, siteId, body: { data: { title: 'Hi' } } })).status,
      ).toBe(201);
      // The embeddings worker runs in this server: the collection's schema and its item are embedded in the
      // background. Wait for both, so what is counted below is not still growing.
      await eventually(async () => expect((await countBySite(siteId)).AiEmbedding).toBe(2));
      // A document in every other site-scoped model (approvals, audit, conversations, events…), written raw.
      for (const model of Object.values(server.database.connection.models)) {
        if (model.schema.path('siteId') === undefined) continue;
        const filter = { siteId: new Types.ObjectId(siteId) };
        // Each indexed field gets a value of its own, so unique indexes (webhook deliveries…) take a raw document per site.
        const indexed = model.schema
          .indexes()
          .flatMap(([keys]) => Object.keys(keys))
          .filter((key) => key !== 'siteId' && !key.includes('.'));
        const raw = { ...filter, raw: true, ...Object.fromEntries(indexed.map((key) => [key, new Types.ObjectId()])) };
        if ((await model.collection.countDocuments(filter)) === 0) await model.collection.insertOne(raw);
      }
    }
    const before = await countBySite(doomed);
    expect(Object.keys(before).length).toBeGreaterThanOrEqual(5);
    expect(Object.values(before).every((count) => count > 0)).toBe(true);
    const keptBefore = await countBySite(kept);

    const response = await server.request('DELETE', `/sites/${doomed}?confirm=${encodeURIComponent('Doomed')}`, {
      token: server.adminToken,
    });
    expect(response.status).toBe(204);
    expect(Object.values(await countBySite(doomed)).every((count) => count === 0)).toBe(true);
    expect(await countBySite(kept)).toEqual(keptBefore);
    const all = await server.request('GET', '/sites?limit=100', { token: server.adminToken });
    expect(all.body.data.map((site: { id: string }) => site.id)).not.toContain(doomed);
    expect((await server.request('GET', '/sites', { token: member.token })).body.data).toEqual([]);
    expect((await server.request('GET', '/collections', { token: server.adminToken, siteId: doomed })).status).toBe(403);
  });

  it('answers 400 without the exact name and keeps the site; 404, 403 and 401 otherwise', async () => {
    const siteId = await server.createSite('Precious');
    for (const query of ['', '?confirm=', '?confirm=precious', '?confirm=Precious%20']) {
      const response = await server.request('DELETE', `/sites/${siteId}${query}`, { token: server.adminToken });
      expect(response.status, query).toBe(400);
      expect(response.body.error.details).toEqual([{ path: 'confirm', message: expect.any(String) }]);
    }
    expect((await server.request('DELETE', '/sites/0123456789abcdef01234567?confirm=X', { token: server.adminToken })).status).toBe(404);
    const admin = await server.createMember({ siteId, role: 'admin' });
    expect((await server.request('DELETE', `/sites/${siteId}?confirm=Precious`, { token: admin.token, siteId })).status).toBe(403);
    expect((await server.request('DELETE', `/sites/${siteId}?confirm=Precious`)).status).toBe(401);
    expect((await server.request('GET', '/sites', { token: admin.token })).body.data).toEqual([{ id: siteId, name: 'Precious' }]);
  });
});

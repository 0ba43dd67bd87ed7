// Items over HTTP: /items/:collection[/:id], with data validated against the collection's fields.
import { ItemListResponse, ItemResponse } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, withoutRequestId } from '../../test-support/test-server.js';

let server: TestServer;
let siteId: string;
let otherSiteId: string;
let editor: { token: string };
let viewer: { token: string };
let otherAdmin: { token: string };

const FIELDS = [
  { name: 'title', type: 'string', required: true },
  { name: 'body', type: 'text' },
  { name: 'rating', type: 'number' },
  { name: 'views', type: 'integer' },
  { name: 'featured', type: 'boolean' },
  { name: 'published_at', type: 'datetime' },
  { name: 'meta', type: 'json' },
  { name: 'status', type: 'enum', options: { values: ['draft', 'live'] } },
];

beforeAll(async () => {
  server = await startTestServer('items-router');
  siteId = await server.createSite('Items');
  otherSiteId = await server.createSite('Other items');
  editor = await server.createMember({ siteId, role: 'editor' });
  viewer = await server.createMember({ siteId, role: 'viewer' });
  otherAdmin = await server.createMember({ siteId: otherSiteId, role: 'admin' });
  for (const [site, token] of [
    [siteId, server.adminToken],
    [otherSiteId, server.adminToken],
  ] as const) {
    const created = await server.request('POST', '/collections', { token, siteId: site, body: { name: 'posts', fields: FIELDS } });
    expect(created.status).toBe(201);
  }
  await server.request('POST', '/collections', {
    token: server.adminToken,
    siteId,
    body: { name: 'pages', fields: [{ name: 'title', type: 'string' }] },
  });
});
afterAll(async () => server?.close());

const as = (member: { token: string }, site = siteId) => ({ token: member.token, siteId: site });
const createPost = (data: Record<string, unknown>, member = editor, site = siteId) =>
  server.request('POST', '/items/posts', { ...as(member, site), body: { data } });

describe('POST /items/:collection', () => {
  it('creates an item of every field type (201) as { id, collection, data, createdAt, updatedAt }', async () => {
    const data = {
      title: 'Hello',
      body: 'Long text',
      rating: 4.5,
      views: 12,
      featured: true,
      published_at: '2024-05-01T09:30:00+02:00',
      meta: { tags: ['a', 'b'], $where: 'kept as data', 'dotted.key': null },
      status: 'live',
    };
    const response = await createPost(data);
    expect(response.status).toBe(201);
    const { data: item } = ItemResponse.parse(response.body);
    expect(item).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      collection: 'posts',
      data,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(response.body.data).not.toHaveProperty('_id');
    expect((await server.request('GET', `/items/posts/${item.id}`, as(viewer))).body.data).toEqual(item);
  });

  it.each([
    ['an unknown field', { title: 'x', colour: 'red' }, 'data.colour'],
    ['a missing required field', { body: 'no title' }, 'data.title'],
    ['a null required field', { title: null }, 'data.title'],
    ['a number for a string', { title: 42 }, 'data.title'],
    ['a string for a number', { title: 'x', rating: '4' }, 'data.rating'],
    ['a fraction for an integer', { title: 'x', views: 1.5 }, 'data.views'],
    ['a string for a boolean', { title: 'x', featured: 'yes' }, 'data.featured'],
    ['a date without a time zone', { title: 'x', published_at: '2024-05-01T09:30:00' }, 'data.published_at'],
    ['a date that is not a date', { title: 'x', published_at: 'yesterday' }, 'data.published_at'],
    ['a value outside the enum', { title: 'x', status: 'archived' }, 'data.status'],
  ])('answers 400 for %s, with the field path in details', async (_label, data, path) => {
    const response = await createPost(data);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(response.body.error.details).toContainEqual({ path, message: expect.any(String) });
  });

  it('reports every offending field at once', async () => {
    const response = await createPost({ rating: 'high', extra: 1 });
    expect(response.body.error.details.map((detail: { path: string }) => detail.path).sort()).toEqual([
      'data.extra',
      'data.rating',
      'data.title',
    ]);
  });

  it('answers 400 for a body without data, with data that is not an object, or with extra properties', async () => {
    for (const body of [{}, { data: 'x' }, { data: [1] }, { data: { title: 'x' }, id: 'mine' }]) {
      const response = await server.request('POST', '/items/posts', { ...as(editor), body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('answers 413 for a body over 256 kB', async () => {
    const response = await createPost({ title: 'x'.repeat(300_000) });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers 404 for an absent collection, 403 for a viewer, 403 outside the site, 401 without credentials', async () => {
    expect((await server.request('POST', '/items/absent', { ...as(editor), body: { data: {} } })).status).toBe(404);
    expect((await createPost({ title: 'x' }, viewer)).status).toBe(403);
    expect((await createPost({ title: 'x' }, editor, otherSiteId)).status).toBe(403);
    expect((await server.request('POST', '/items/posts', { siteId, body: { data: { title: 'x' } } })).status).toBe(401);
  });
});

/** A JSON object nested `depth` levels deep ({} is one level), as raw text: too deep for a recursive JSON.stringify to be sure. */
const nestedJson = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

describe('json values and prototype keys', () => {
  it('accepts a json value nested 64 levels and refuses 65 or 5,000 levels with 400 and details, on POST and PATCH', async () => {
    const post = (meta: string) =>
      server.request('POST', '/items/posts', { token: editor.token, siteId, rawBody: `{"data":{"title":"deep","meta":${meta}}}` });
    const accepted = await post(nestedJson(64));
    expect(accepted.status).toBe(201);
    for (const depth of [65, 5_000]) {
      const refused = await post(nestedJson(depth));
      expect(refused.status, `${depth} levels`).toBe(400);
      expect(refused.body.error.code).toBe('VALIDATION_FAILED');
      expect(refused.body.error.details).toEqual([{ path: 'data.meta', message: 'must not nest deeper than 64 levels' }]);
      const patched = await server.request('PATCH', `/items/posts/${accepted.body.data.id}`, {
        token: editor.token,
        siteId,
        rawBody: `{"data":{"meta":${nestedJson(depth)}}}`,
      });
      expect(patched.status, `${depth} levels`).toBe(400);
      expect(patched.body.error.details).toEqual([{ path: 'data.meta', message: 'must not nest deeper than 64 levels' }]);
    }
  });

  it('refuses a __proto__ key in item data as an unknown field (400), on POST and PATCH', async () => {
    const created = await server.request('POST', '/items/posts', {
      token: editor.token,
      siteId,
      rawBody: '{"data":{"title":"polluting","__proto__":{"title":"shadow"}}}',
    });
    expect(created.status).toBe(400);
    expect(created.body.error.details).toEqual([{ path: 'data.__proto__', message: 'Unknown field' }]);
    const item = await server.request('POST', '/items/posts', { token: editor.token, siteId, body: { data: { title: 'plain' } } });
    const patched = await server.request('PATCH', `/items/posts/${item.body.data.id}`, {
      token: editor.token,
      siteId,
      rawBody: '{"data":{"__proto__":{"title":"shadow"}}}',
    });
    expect(patched.status).toBe(400);
    expect(patched.body.error.details).toEqual([{ path: 'data.__proto__', message: 'Unknown field' }]);
  });
});

describe('GET /items/:collection', () => {
  it('lists newest first with limit (default 25, max 100), offset and meta', async () => {
    await server.request('POST', '/collections', {
      token: server.adminToken,
      siteId,
      body: { name: 'many', fields: [{ name: 'n', type: 'integer' }] },
    });
    for (let n = 0; n < 27; n += 1) await server.request('POST', '/items/many', { ...as(editor), body: { data: { n } } });
    const first = await server.request('GET', '/items/many', as(viewer));
    expect(first.status).toBe(200);
    const body = ItemListResponse.parse(first.body);
    expect(body.meta).toEqual({ total: 27, limit: 25, offset: 0 });
    expect(body.data.map((item) => item.data.n)).toEqual(Array.from({ length: 25 }, (_, index) => 26 - index));
    const rest = await server.request('GET', '/items/many?limit=100&offset=25', as(viewer));
    expect(rest.body.data.map((item: { data: { n: number } }) => item.data.n)).toEqual([1, 0]);
    expect(rest.body.meta).toEqual({ total: 27, limit: 100, offset: 25 });
    for (const query of ['limit=101', 'limit=0', 'offset=-1', 'limit=ten']) {
      expect((await server.request('GET', `/items/many?${query}`, as(viewer))).status, query).toBe(400);
    }
  });

  it("never lists another site's items of a same-named collection", async () => {
    await createPost({ title: 'secret of the other site' }, otherAdmin, otherSiteId);
    const listed = await server.request('GET', '/items/posts?limit=100', as(viewer));
    expect(listed.body.data.map((item: { data: { title: string } }) => item.data.title)).not.toContain('secret of the other site');
  });

  it('answers 404 for an absent collection and 403 without content:read', async () => {
    expect((await server.request('GET', '/items/absent', as(viewer))).status).toBe(404);
    const outsider = await server.createMember({ siteId: otherSiteId, role: 'viewer' });
    expect((await server.request('GET', '/items/posts', as(outsider))).status).toBe(403);
  });
});

describe('PATCH /items/:collection/:id', () => {
  it('merges the given fields (200), removes an optional one given null, keeps the rest', async () => {
    const created = (await createPost({ title: 'Before', body: 'kept', rating: 1 })).body.data;
    const patched = await server.request('PATCH', `/items/posts/${created.id}`, {
      ...as(editor),
      body: { data: { title: 'After', rating: null, views: 3 } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.data).toEqual({ title: 'After', body: 'kept', views: 3 });
    expect(new Date(patched.body.data.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(created.updatedAt).getTime());
    expect((await server.request('GET', `/items/posts/${created.id}`, as(viewer))).body.data.data).toEqual({
      title: 'After',
      body: 'kept',
      views: 3,
    });
  });

  it('answers 400 for a wrong type, an unknown field or null for a required field, changing nothing', async () => {
    const created = (await createPost({ title: 'Stable' })).body.data;
    for (const data of [{ views: 'many' }, { unknown: 1 }, { title: null }]) {
      const response = await server.request('PATCH', `/items/posts/${created.id}`, { ...as(editor), body: { data } });
      expect(response.status, JSON.stringify(data)).toBe(400);
    }
    expect((await server.request('GET', `/items/posts/${created.id}`, as(viewer))).body.data.data).toEqual({ title: 'Stable' });
  });
});

describe('a record outside the site', () => {
  it("answers 403 with one body for another site's item, a nonexistent id, a malformed id and another collection's item", async () => {
    const theirs = (await createPost({ title: 'theirs' }, otherAdmin, otherSiteId)).body.data;
    const page = (await server.request('POST', '/items/pages', { ...as(editor), body: { data: { title: 'a page' } } })).body.data;
    const ids = [theirs.id, '0123456789abcdef01234567', 'not-an-id', page.id, `${theirs.id}x`];
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { data: { title: 'hijacked' } }],
      ['DELETE', undefined],
    ] as const) {
      const responses = await Promise.all(
        ids.map((id) => server.request(method, `/items/posts/${id}`, { ...as(editor), ...(body ? { body } : {}) })),
      );
      for (const response of responses) expect(response.status, method).toBe(403);
      expect(new Set(responses.map((response) => JSON.stringify(withoutRequestId(response.body)))).size, method).toBe(1);
    }
    expect((await server.request('GET', `/items/posts/${theirs.id}`, as(otherAdmin, otherSiteId))).body.data.data).toEqual({
      title: 'theirs',
    });
  });

  it('answers 404 (not 403) for an absent collection name, whatever the id', async () => {
    expect((await server.request('GET', '/items/absent/0123456789abcdef01234567', as(viewer))).status).toBe(404);
  });
});

describe('DELETE /items/:collection/:id', () => {
  it('deletes (204); the item is then gone (403) and a second delete is 403', async () => {
    const created = (await createPost({ title: 'Short-lived' })).body.data;
    const response = await server.request('DELETE', `/items/posts/${created.id}`, as(editor));
    expect(response.status).toBe(204);
    expect((await server.request('GET', `/items/posts/${created.id}`, as(viewer))).status).toBe(403);
    expect((await server.request('DELETE', `/items/posts/${created.id}`, as(editor))).status).toBe(403);
  });

  it('answers 403 for a viewer', async () => {
    const created = (await createPost({ title: 'Protected' })).body.data;
    expect((await server.request('DELETE', `/items/posts/${created.id}`, as(viewer))).status).toBe(403);
  });
});

// Collections and fields over HTTP: /collections, /collections/:name, /collections/:name/fields[/:field].
import { CollectionListResponse, CollectionResponse } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
let siteId: string;
let otherSiteId: string;
let admin: { token: string };
let viewer: { token: string };
let editor: { token: string };

beforeAll(async () => {
  server = await startTestServer('collections-router');
  siteId = await server.createSite('Content');
  otherSiteId = await server.createSite('Elsewhere');
  admin = await server.createMember({ siteId, role: 'admin' });
  viewer = await server.createMember({ siteId, role: 'viewer' });
  editor = await server.createMember({ siteId, role: 'editor' });
});
afterAll(async () => server?.close());

const as = (member: { token: string }, site = siteId) => ({ token: member.token, siteId: site });
const createCollection = (body: unknown, member = admin, site = siteId) =>
  server.request('POST', '/collections', { ...as(member, site), body });

describe('POST /collections', () => {
  it('creates a collection with typed fields (201); required defaults to false', async () => {
    const response = await createCollection({
      name: 'articles',
      label: 'Articles',
      fields: [
        { name: 'title', type: 'string', required: true },
        { name: 'state', type: 'enum', options: { values: ['draft', 'live'] } },
      ],
    });
    expect(response.status).toBe(201);
    expect(CollectionResponse.parse(response.body).data).toEqual({
      name: 'articles',
      label: 'Articles',
      fields: [
        { name: 'title', type: 'string', required: true },
        { name: 'state', type: 'enum', required: false, options: { values: ['draft', 'live'] } },
      ],
    });
  });

  it('answers 409 for a name taken in the site, and allows the same name in another site', async () => {
    expect((await createCollection({ name: 'dupes' })).status).toBe(201);
    const again = await createCollection({ name: 'dupes' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
    expect((await createCollection({ name: 'dupes' }, { token: server.adminToken }, otherSiteId)).status).toBe(201);
  });

  it.each([
    ['a name with capitals', { name: 'Posts' }, 'name'],
    ['a name starting with a digit', { name: '1posts' }, 'name'],
    ['a name over 64 characters', { name: `a${'b'.repeat(64)}` }, 'name'],
    ['a missing name', {}, 'name'],
    ['an unknown field type', { name: 'bad', fields: [{ name: 'x', type: 'color' }] }, 'fields.0.type'],
    ['an enum without values', { name: 'bad', fields: [{ name: 'x', type: 'enum' }] }, 'fields.0.options.values'],
    ['a bad field name', { name: 'bad', fields: [{ name: 'X Y', type: 'string' }] }, 'fields.0.name'],
    [
      'a repeated field name',
      {
        name: 'bad',
        fields: [
          { name: 'x', type: 'string' },
          { name: 'x', type: 'text' },
        ],
      },
      'fields.1.name',
    ],
    ['fields of the wrong type', { name: 'bad', fields: 'title' }, 'fields'],
    ['an unknown property', { name: 'bad', color: 'red' }, 'color'],
  ])('answers 400 for %s', async (_label, body, path) => {
    const response = await createCollection(body);
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect((await server.request('GET', '/collections/bad', as(admin))).status).toBe(404);
  });

  it('answers 403 without schema:write (an editor), 403 outside the site, 400 without X-Site-Id, 401 without credentials', async () => {
    expect((await createCollection({ name: 'nope' }, editor)).status).toBe(403);
    expect((await createCollection({ name: 'nope' }, admin, otherSiteId)).status).toBe(403);
    expect((await server.request('POST', '/collections', { token: admin.token, body: { name: 'nope' } })).status).toBe(400);
    expect((await server.request('POST', '/collections', { siteId, body: { name: 'nope' } })).status).toBe(401);
  });
});

describe('GET /collections and /collections/:name', () => {
  it("lists the site's collections by name to anyone with schema:read, and never another site's", async () => {
    await createCollection({ name: 'only_elsewhere' }, { token: server.adminToken }, otherSiteId);
    const response = await server.request('GET', '/collections?limit=100', as(viewer));
    expect(response.status).toBe(200);
    const body = CollectionListResponse.parse(response.body);
    const names = body.data.map((collection) => collection.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('articles');
    expect(names).not.toContain('only_elsewhere');
    expect(body.meta).toEqual({ total: names.length, limit: 100, offset: 0 });
  });

  it('answers one collection, 404 for an absent name or one that cannot be a name', async () => {
    const found = await server.request('GET', '/collections/articles', as(viewer));
    expect(found.status).toBe(200);
    expect(found.body.data.name).toBe('articles');
    for (const name of ['absent', 'only_elsewhere', 'Not%20A%20Name', '%F0%9F%98%80']) {
      const response = await server.request('GET', `/collections/${name}`, as(viewer));
      expect(response.status, name).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
  });
});

describe('DELETE /collections/:name', () => {
  it('deletes the collection with its items into the trash (204); a new collection of that name starts empty', async () => {
    await createCollection({ name: 'doomed', fields: [{ name: 'title', type: 'string' }] });
    await server.request('POST', '/items/doomed', { ...as(admin), body: { data: { title: 'one' } } });
    expect((await server.request('DELETE', '/collections/doomed', as(admin))).status).toBe(204);
    expect((await server.request('GET', '/collections/doomed', as(admin))).status).toBe(404);
    expect((await server.request('GET', '/items/doomed', as(admin))).status).toBe(404);
    const trash = await server.request('GET', '/trash', as(admin));
    expect(trash.body.data).toContainEqual(expect.objectContaining({ kind: 'collection', collection: 'doomed', items: 1 }));
    await createCollection({ name: 'doomed', fields: [{ name: 'title', type: 'string' }] });
    expect((await server.request('GET', '/items/doomed', as(admin))).body.meta.total).toBe(0);
    // The trashed item is kept (restorable), but not in the new collection.
    expect(await server.composed.stores.models.items.countDocuments({ 'data.title': 'one' })).toBe(1);
  });

  it('answers 404 for an absent collection and 403 without schema:write', async () => {
    expect((await server.request('DELETE', '/collections/absent', as(admin))).status).toBe(404);
    expect((await server.request('DELETE', '/collections/articles', as(editor))).status).toBe(403);
  });
});

describe('fields', () => {
  it('adds a field (201), 409 for a taken name, 404 for an absent collection, 400 for a bad field', async () => {
    await createCollection({ name: 'with_fields' });
    const added = await server.request('POST', '/collections/with_fields/fields', {
      ...as(admin),
      body: { name: 'score', type: 'integer' },
    });
    expect(added.status).toBe(201);
    expect(added.body.data).toEqual({ name: 'score', type: 'integer', required: false });
    expect(
      (await server.request('POST', '/collections/with_fields/fields', { ...as(admin), body: { name: 'score', type: 'number' } })).status,
    ).toBe(409);
    expect((await server.request('POST', '/collections/absent/fields', { ...as(admin), body: { name: 'x', type: 'string' } })).status).toBe(
      404,
    );
    const bad = await server.request('POST', '/collections/with_fields/fields', {
      ...as(admin),
      body: { name: 'x', type: 'enum', options: { values: [] } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toContainEqual({ path: 'options.values', message: expect.any(String) });
    expect(
      (await server.request('POST', '/collections/with_fields/fields', { ...as(editor), body: { name: 'y', type: 'string' } })).status,
    ).toBe(403);
  });

  it('refuses field options nested deeper than 64 levels (400 with details) on every route that takes a field', async () => {
    await createCollection({ name: 'deep_options', fields: [{ name: 'meta', type: 'json' }] });
    const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
    const send = (method: string, path: string, rawBody: string) => server.request(method, path, { ...as(admin), rawBody });
    for (const depth of [65, 5_000]) {
      const responses = [
        [
          await send('POST', '/collections', `{"name":"deep_${depth}","fields":[{"name":"x","type":"json","options":${nested(depth)}}]}`),
          'fields.0.options',
        ],
        [await send('POST', '/collections/deep_options/fields', `{"name":"x","type":"json","options":${nested(depth)}}`), 'options'],
        [await send('PATCH', '/collections/deep_options/fields/meta', `{"options":${nested(depth)}}`), 'options'],
      ] as const;
      for (const [response, path] of responses) {
        expect(response.status, `${depth} levels at ${path}`).toBe(400);
        expect(response.body.error.details).toEqual([{ path, message: 'must not nest deeper than 64 levels' }]);
      }
    }
    expect((await send('PATCH', '/collections/deep_options/fields/meta', `{"options":${nested(64)}}`)).status).toBe(200);
  });

  it('changes a field (200), keeping what PATCH does not mention', async () => {
    await createCollection({ name: 'patchable', fields: [{ name: 'kind', type: 'enum', options: { values: ['a'] } }] });
    const patched = await server.request('PATCH', '/collections/patchable/fields/kind', {
      ...as(admin),
      body: { required: true, options: { values: ['a', 'b'] } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toEqual({ name: 'kind', type: 'enum', required: true, options: { values: ['a', 'b'] } });
    expect((await server.request('GET', '/collections/patchable', as(viewer))).body.data.fields).toEqual([patched.body.data]);
    const optionsOnly = await server.request('PATCH', '/collections/patchable/fields/kind', {
      ...as(admin),
      body: { options: { values: ['b'] } },
    });
    expect(optionsOnly.body.data).toEqual({ name: 'kind', type: 'enum', required: true, options: { values: ['b'] } });
  });

  it('renames a field and moves its values in the items; 409 when the new name is taken', async () => {
    await createCollection({
      name: 'renamed',
      fields: [
        { name: 'old', type: 'string' },
        { name: 'other', type: 'string' },
      ],
    });
    const item = await server.request('POST', '/items/renamed', { ...as(admin), body: { data: { old: 'kept', other: 'x' } } });
    const renamed = await server.request('PATCH', '/collections/renamed/fields/old', { ...as(admin), body: { name: 'fresh' } });
    expect(renamed.status).toBe(200);
    expect((await server.request('GET', `/items/renamed/${item.body.data.id}`, as(admin))).body.data.data).toEqual({
      fresh: 'kept',
      other: 'x',
    });
    expect((await server.request('PATCH', '/collections/renamed/fields/fresh', { ...as(admin), body: { name: 'other' } })).status).toBe(
      409,
    );
  });

  it('answers 400 for a change that leaves an invalid field or names no property, 404 for an absent field', async () => {
    await createCollection({ name: 'strict_fields', fields: [{ name: 'kind', type: 'string' }] });
    const toEnum = await server.request('PATCH', '/collections/strict_fields/fields/kind', { ...as(admin), body: { type: 'enum' } });
    expect(toEnum.status).toBe(400);
    expect(toEnum.body.error.details).toContainEqual({ path: 'options.values', message: expect.any(String) });
    expect(
      (await server.request('PATCH', '/collections/strict_fields/fields/kind', { ...as(admin), body: { colour: 'red' } })).status,
    ).toBe(400);
    expect(
      (await server.request('PATCH', '/collections/strict_fields/fields/kind', { ...as(admin), body: { type: 'decimal' } })).status,
    ).toBe(400);
    expect(
      (await server.request('PATCH', '/collections/strict_fields/fields/absent', { ...as(admin), body: { required: true } })).status,
    ).toBe(404);
    expect((await server.request('PATCH', '/collections/absent/fields/kind', { ...as(admin), body: { required: true } })).status).toBe(404);
  });

  it("deletes a field (204) and removes its values from the collection's items", async () => {
    await createCollection({
      name: 'trimmed',
      fields: [
        { name: 'keep', type: 'string' },
        { name: 'drop', type: 'json' },
      ],
    });
    const item = await server.request('POST', '/items/trimmed', { ...as(admin), body: { data: { keep: 'k', drop: { nested: [1, 2] } } } });
    expect((await server.request('DELETE', '/collections/trimmed/fields/drop', as(admin))).status).toBe(204);
    expect(
      (await server.request('GET', '/collections/trimmed', as(admin))).body.data.fields.map((field: { name: string }) => field.name),
    ).toEqual(['keep']);
    expect((await server.request('GET', `/items/trimmed/${item.body.data.id}`, as(admin))).body.data.data).toEqual({ keep: 'k' });
    // A new field of the old name does not bring the old values back.
    await server.request('POST', '/collections/trimmed/fields', { ...as(admin), body: { name: 'drop', type: 'json' } });
    expect((await server.request('GET', `/items/trimmed/${item.body.data.id}`, as(admin))).body.data.data).toEqual({ keep: 'k' });
    expect((await server.request('DELETE', '/collections/trimmed/fields/absent', as(admin))).status).toBe(404);
    expect((await server.request('DELETE', '/collections/trimmed/fields/keep', as(editor))).status).toBe(403);
  });

  it('keeps every concurrent field addition (compare-and-set, no lost update)', async () => {
    await createCollection({ name: 'concurrent' });
    const names = Array.from({ length: 8 }, (_, index) => `f${index}`);
    const responses = await Promise.all(
      names.map((name) => server.request('POST', '/collections/concurrent/fields', { ...as(admin), body: { name, type: 'string' } })),
    );
    expect(responses.map((response) => response.status)).toEqual(names.map(() => 201));
    const fields = (await server.request('GET', '/collections/concurrent', as(admin))).body.data.fields.map(
      (field: { name: string }) => field.name,
    );
    expect([...fields].sort()).toEqual(names);
  });
});

// The trash over HTTP: deleted collections and fields go there (also through an approved Copilot
// deletion), GET /trash lists them, POST /trash/:id/restore brings them back, the purge ends them.
import { TrashListResponse, TrashRestoreResponse } from '@lumibase/shared';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { TrashPurge } from '../services/trash-purge.js';
import { eventually } from '../../test-support/eventually.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
let siteId: string;
let otherSiteId: string;
let admin: { id: string; token: string };
let viewer: { token: string };
let otherAdmin: { token: string };

beforeAll(async () => {
  server = await startTestServer('trash-router');
  siteId = await server.createSite('Trash');
  otherSiteId = await server.createSite('Elsewhere');
  admin = await server.createMember({ siteId, role: 'admin' });
  viewer = await server.createMember({ siteId, role: 'viewer' });
  otherAdmin = await server.createMember({ siteId: otherSiteId, role: 'admin' });
});
afterAll(async () => server?.close());

const as = (member: { token: string }, site = siteId) => ({ token: member.token, siteId: site });
const call = (method: string, path: string, body?: unknown, member: { token: string } = admin, site = siteId) =>
  server.request(method, path, { ...as(member, site), ...(body !== undefined ? { body } : {}) });

async function createCollection(name: string, fields: unknown[] = [{ name: 'title', type: 'string', required: true }]) {
  expect((await call('POST', '/collections', { name, fields })).status).toBe(201);
}

async function createItems(collection: string, items: Record<string, unknown>[]): Promise<string[]> {
  const ids: string[] = [];
  for (const data of items) {
    const response = await call('POST', `/items/${collection}`, { data });
    expect(response.status).toBe(201);
    ids.push(response.body.data.id);
  }
  return ids;
}

async function trashList(member: { token: string } = admin, site = siteId) {
  const response = await call('GET', '/trash', undefined, member, site);
  expect(response.status).toBe(200);
  return TrashListResponse.parse(response.body).data;
}

async function siteEvents(): Promise<{ name: string; body: Record<string, unknown> }[]> {
  const documents = await server.database.connection
    .collection('site_events')
    .find({ siteId: new Types.ObjectId(siteId) })
    .sort({ seq: 1 })
    .toArray();
  return documents.map((document) => ({ name: document.name as string, body: JSON.parse(document.body as string) }));
}

describe('deleting and restoring a collection', () => {
  it('an approved deleteCollection puts it in the trash with its item count; the card said for how long', async () => {
    await createCollection('posts');
    await createItems('posts', [{ title: 'One' }, { title: 'Two' }, { title: 'Three' }]);
    const asked = await call('POST', '/ai/chat', { message: 'delete collection posts' });
    expect(asked.body.data.status).toBe('pending_approval');
    const approvalId = asked.body.data.approvalId as string;
    const approval = await call('GET', `/ai/approvals/${approvalId}`);
    expect(approval.body.data.impact).toMatchObject({ summary: 'Deletes the collection posts and its 3 items', restorableDays: 30 });

    const decided = await call('POST', `/ai/approvals/${approvalId}/decide`, { decision: 'approved' });
    expect(decided.status).toBe(200);
    expect(decided.body.data.status).toBe('approved');

    expect((await call('GET', '/collections/posts')).status).toBe(404);
    const [entry] = await trashList();
    expect(entry).toMatchObject({ kind: 'collection', collection: 'posts', items: 3 });
    expect(entry!.field).toBeUndefined();
    const days = (Date.parse(entry!.expiresAt) - Date.parse(entry!.deletedAt)) / 86_400_000;
    expect(days).toBeCloseTo(30, 5);
  });

  it('restores it with its items under the same ids and their revisions; a taken name is a 409 until it is free', async () => {
    await createCollection('articles', [
      { name: 'title', type: 'string', required: true },
      { name: 'words', type: 'integer' },
    ]);
    const ids = await createItems('articles', [{ title: 'Kept', words: 10 }, { title: 'Also kept' }]);
    expect((await call('PATCH', `/items/articles/${ids[0]}`, { data: { words: 12 } })).status).toBe(200);
    expect((await call('DELETE', '/collections/articles')).status).toBe(204);

    const entry = (await trashList()).find((candidate) => candidate.collection === 'articles')!;
    expect(entry).toMatchObject({ kind: 'collection', items: 2, deletedBy: { id: admin.id } });

    // The name is free at once; while it is taken, the restore is refused and the entry stays.
    await createCollection('articles');
    const refused = await call('POST', `/trash/${entry.id}/restore`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('CONFLICT');
    expect(refused.body.error.message).toMatch(/collection named "articles" exists again/);
    expect((await trashList()).some((candidate) => candidate.id === entry.id)).toBe(true);

    expect((await call('DELETE', '/collections/articles')).status).toBe(204);
    const restored = await call('POST', `/trash/${entry.id}/restore`);
    expect(restored.status).toBe(200);
    expect(TrashRestoreResponse.parse(restored.body).data).toEqual({ id: entry.id, kind: 'collection', collection: 'articles', items: 2 });

    const collection = await call('GET', '/collections/articles');
    expect(collection.body.data.fields.map((field: { name: string }) => field.name)).toEqual(['title', 'words']);
    const items = await call('GET', '/items/articles');
    expect(items.body.data.map((item: { id: string }) => item.id).sort()).toEqual([...ids].sort());
    expect((await call('GET', `/items/articles/${ids[0]}`)).body.data.data).toEqual({ title: 'Kept', words: 12 });
    const revisions = await call('GET', `/items/articles/${ids[0]}/revisions`);
    expect(revisions.body.data.map((revision: { action: string }) => revision.action)).toEqual(['updated', 'created']);

    // Gone from the trash, audited, announced.
    expect((await trashList()).some((candidate) => candidate.id === entry.id)).toBe(false);
    const audit = await call('GET', '/ai/audit');
    expect(audit.body.data[0]).toMatchObject({ action: 'restored', actor: { id: admin.id }, detail: { trash: { id: entry.id } } });
    const events = await siteEvents();
    expect(events.map((event) => event.body)).toContainEqual({ kind: 'trash', action: 'deleted', collection: 'articles', id: entry.id });
    expect(events.map((event) => event.body)).toContainEqual({ kind: 'trash', action: 'created', collection: 'articles', id: entry.id });

    // A second restore finds nothing: the entry is gone.
    expect((await call('POST', `/trash/${entry.id}/restore`)).status).toBe(403);
  });
});

describe('search across a deletion and a restore', () => {
  async function searchIds(query: string): Promise<string[]> {
    const response = await call('GET', `/ai/search?q=${encodeURIComponent(query)}`);
    expect(response.status).toBe(200);
    return response.body.data.map((hit: { id: string }) => hit.id);
  }

  it('drops a trashed collection’s items from search and finds them again once restored', async () => {
    await createCollection('breads');
    const [id] = await createItems('breads', [{ title: 'Sourdough loaf with rye flour and a long cold proof' }]);
    await eventually(async () => expect(await searchIds('sourdough rye loaf')).toContain(id));

    expect((await call('DELETE', '/collections/breads')).status).toBe(204);
    await eventually(async () => expect(await searchIds('sourdough rye loaf')).not.toContain(id));

    const entry = (await trashList()).find((candidate) => candidate.collection === 'breads');
    expect((await call('POST', `/trash/${entry!.id}/restore`)).status).toBe(200);
    await eventually(async () => expect(await searchIds('sourdough rye loaf')).toContain(id));
  });
});

describe('deleting and restoring a field', () => {
  it('takes the values with the field and brings them back; a field of that name again is a 409', async () => {
    await createCollection('cars', [
      { name: 'model', type: 'string', required: true },
      { name: 'colour', type: 'enum', options: { values: ['red', 'blue'] } },
    ]);
    const [red, blue, none] = await createItems('cars', [{ model: 'A', colour: 'red' }, { model: 'B', colour: 'blue' }, { model: 'C' }]);
    const asked = await call('POST', '/ai/chat', { message: 'delete field colour from cars' });
    const approval = await call('GET', `/ai/approvals/${asked.body.data.approvalId}`);
    expect(approval.body.data.impact).toMatchObject({ restorableDays: 30 });
    const decided = await call('POST', `/ai/approvals/${asked.body.data.approvalId}/decide`, { decision: 'approved' });
    expect(decided.body.data.status).toBe('approved');

    expect((await call('GET', `/items/cars/${red}`)).body.data.data).toEqual({ model: 'A' });
    const entry = (await trashList()).find((candidate) => candidate.kind === 'field')!;
    expect(entry).toMatchObject({ collection: 'cars', field: 'colour', items: 2 });

    expect((await call('POST', '/collections/cars/fields', { name: 'colour', type: 'string' })).status).toBe(201);
    const refused = await call('POST', `/trash/${entry.id}/restore`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/field named "colour" again/);
    expect((await call('DELETE', '/collections/cars/fields/colour')).status).toBe(204);

    const restored = await call('POST', `/trash/${entry.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.data).toEqual({ id: entry.id, kind: 'field', collection: 'cars', field: 'colour', items: 2 });
    const cars = await call('GET', '/collections/cars');
    expect(cars.body.data.fields).toContainEqual({ name: 'colour', type: 'enum', required: false, options: { values: ['red', 'blue'] } });
    expect((await call('GET', `/items/cars/${red}`)).body.data.data).toEqual({ model: 'A', colour: 'red' });
    expect((await call('GET', `/items/cars/${blue}`)).body.data.data).toEqual({ model: 'B', colour: 'blue' });
    expect((await call('GET', `/items/cars/${none}`)).body.data.data).toEqual({ model: 'C' });
  });
});

describe('the purge', () => {
  it('removes trash past its retention with its items, and nothing younger', async () => {
    await createCollection('old_news');
    await createItems('old_news', [{ title: 'Stale' }]);
    const collectionId = (await server.database.connection
      .collection('cms_collections')
      .findOne({ siteId: new Types.ObjectId(siteId), name: 'old_news' }))!._id;
    expect((await call('DELETE', '/collections/old_news')).status).toBe(204);
    const entry = (await trashList()).find((candidate) => candidate.collection === 'old_news')!;
    const items = () => server.database.connection.collection('cms_items').countDocuments({ collectionId });
    expect(await items()).toBe(1);

    const purge = (at: number) =>
      new TrashPurge({ stores: server.composed.domain.stores, logger: createLogger({ level: 'silent' }), clock: () => new Date(at) });
    // A day before any of this file's entries expires, nothing goes.
    const before = (await trashList()).length;
    expect(await purge(Date.parse(entry.deletedAt) + 29 * 86_400_000).purge()).toBe(0);
    expect(await trashList()).toHaveLength(before);

    expect(await purge(Date.parse(entry.expiresAt) + 1000).purge()).toBeGreaterThanOrEqual(1);
    expect((await trashList()).some((candidate) => candidate.id === entry.id)).toBe(false);
    expect(await items()).toBe(0);
    expect(await server.database.connection.collection('item_revisions').countDocuments({ collectionId })).toBe(0);
    expect((await call('POST', `/trash/${entry.id}/restore`)).status).toBe(403);
  });

  it('honours a retention of a fraction of a day', async () => {
    const short = await startTestServer('trash-short', { TRASH_RETENTION_DAYS: '0.00002' });
    try {
      const site = await short.createSite('Short');
      const request = (method: string, path: string, body?: unknown) =>
        short.request(method, path, { token: short.adminToken, siteId: site, ...(body !== undefined ? { body } : {}) });
      expect((await request('POST', '/collections', { name: 'brief' })).status).toBe(201);
      expect((await request('DELETE', '/collections/brief')).status).toBe(204);
      const [entry] = (await request('GET', '/trash')).body.data;
      expect(Date.parse(entry.expiresAt) - Date.parse(entry.deletedAt)).toBe(1728);
      await new Promise((resolve) => setTimeout(resolve, 1800));
      expect((await request('GET', '/trash')).body.data).toEqual([]);
      await new TrashPurge({ stores: short.composed.domain.stores, logger: createLogger({ level: 'silent' }) }).purge();
      expect(await short.database.connection.collection('trash_entries').countDocuments({})).toBe(0);
    } finally {
      await short.close();
    }
  });
});

describe('access', () => {
  it('keeps each site to its own trash: another site can neither list nor restore it', async () => {
    await createCollection('private_notes');
    expect((await call('DELETE', '/collections/private_notes')).status).toBe(204);
    const entry = (await trashList()).find((candidate) => candidate.collection === 'private_notes')!;
    expect(await trashList(otherAdmin, otherSiteId)).toEqual([]);
    const foreign = await call('POST', `/trash/${entry.id}/restore`, undefined, otherAdmin, otherSiteId);
    const unknown = await call('POST', '/trash/ffffffffffffffffffffffff/restore');
    const malformed = await call('POST', '/trash/not-an-id/restore');
    for (const response of [foreign, unknown, malformed]) {
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('FORBIDDEN');
    }
    expect({ ...foreign.body.error, requestId: '' }).toEqual({ ...unknown.body.error, requestId: '' });
    expect((await trashList()).some((candidate) => candidate.id === entry.id)).toBe(true);
  });

  it('lets schema:read list and only schema:write restore; bad list queries are 400 with details', async () => {
    const entry = (await trashList(viewer))[0]!;
    const denied = await call('POST', `/trash/${entry.id}/restore`, undefined, viewer);
    expect(denied.status).toBe(403);
    const bad = await call('GET', '/trash?limit=1000');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toMatch(/limit/);
    expect((await server.request('GET', '/trash', { siteId })).status).toBe(401);
  });
});

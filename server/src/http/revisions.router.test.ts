// Item revisions over HTTP: written with every change (REST, Copilot, approval, restore), listed, restored.
import { ItemRevisionListResponse } from '@lumibase/shared';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
let siteId: string;
let editor: { id: string; token: string };
let viewer: { token: string };

beforeAll(async () => {
  server = await startTestServer('revisions');
  siteId = await server.createSite('Revisions');
  editor = await server.createMember({ siteId, role: 'editor' });
  viewer = await server.createMember({ siteId, role: 'viewer' });
  const created = await server.request('POST', '/collections', {
    token: server.adminToken,
    siteId,
    body: {
      name: 'posts',
      fields: [
        { name: 'title', type: 'string', required: true },
        { name: 'views', type: 'integer' },
      ],
    },
  });
  expect(created.status).toBe(201);
});
afterAll(async () => server?.close());

const as = (member: { token: string } = editor) => ({ token: member.token, siteId });
const createPost = async (data: Record<string, unknown>) => {
  const response = await server.request('POST', '/items/posts', { ...as(), body: { data } });
  expect(response.status).toBe(201);
  return response.body.data.id as string;
};
const update = (id: string, data: Record<string, unknown>) => server.request('PATCH', `/items/posts/${id}`, { ...as(), body: { data } });
const revisionsOf = async (id: string, member: { token: string } = editor) => {
  const response = await server.request('GET', `/items/posts/${id}/revisions`, as(member));
  expect(response.status).toBe(200);
  return ItemRevisionListResponse.parse(response.body).data;
};
const restore = (id: string, revision: number | string) => server.request('POST', `/items/posts/${id}/revisions/${revision}/restore`, as());

async function itemEvents(id: string) {
  const events = await server.database.connection
    .collection('site_events')
    .find({ siteId: new Types.ObjectId(siteId), name: 'content-changed' })
    .sort({ seq: 1 })
    .toArray();
  return events.map((event) => JSON.parse(event.body as string)).filter((body) => body.id === id);
}

describe('item revisions', () => {
  it('create, update twice, delete, restore revision 2: the item is back under its id with a restored revision', async () => {
    const id = await createPost({ title: 'one' });
    expect((await update(id, { title: 'two', views: 2 })).status).toBe(200);
    expect((await update(id, { title: 'three', views: null })).status).toBe(200);
    expect((await server.request('DELETE', `/items/posts/${id}`, as())).status).toBe(204);
    expect((await server.request('GET', `/items/posts/${id}`, as())).status).toBe(403);

    const history = await revisionsOf(id, viewer);
    expect(history.map((entry) => [entry.revision, entry.action, entry.via, entry.data])).toEqual([
      [4, 'deleted', 'rest', { title: 'three' }],
      [3, 'updated', 'rest', { title: 'three' }],
      [2, 'updated', 'rest', { title: 'two', views: 2 }],
      [1, 'created', 'rest', { title: 'one' }],
    ]);
    expect(history.every((entry) => entry.actor.id === editor.id)).toBe(true);

    const restored = await restore(id, 2);
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ id, collection: 'posts', data: { title: 'two', views: 2 }, revision: 5 });
    expect((await server.request('GET', `/items/posts/${id}`, as())).body.data.data).toEqual({ title: 'two', views: 2 });
    const [latest] = await revisionsOf(id);
    expect(latest).toMatchObject({
      revision: 5,
      action: 'restored',
      via: 'restore',
      data: { title: 'two', views: 2 },
      actor: { id: editor.id },
    });

    // Restoring an existing item is an update; both carry the revision in their content-changed event.
    expect((await restore(id, 1)).body.data).toMatchObject({ data: { title: 'one' }, revision: 6 });
    expect((await itemEvents(id)).map((event) => [event.action, event.revision])).toEqual([
      ['created', 1],
      ['updated', 2],
      ['updated', 3],
      ['deleted', 4],
      ['created', 5],
      ['updated', 6],
    ]);

    const audit = await server.request('GET', '/ai/audit?limit=5', { token: server.adminToken, siteId });
    expect(audit.body.data[0]).toMatchObject({
      action: 'restored',
      actor: { id: editor.id },
      detail: { collection: 'posts', id, revision: 6, restoredRevision: 1 },
    });
  });

  it('two concurrent updates produce two revisions with consecutive numbers', async () => {
    const id = await createPost({ title: 'start' });
    const results = await Promise.all([update(id, { views: 1 }), update(id, { title: 'concurrent' }), update(id, { views: 3 })]);
    expect(results.map((result) => result.status)).toEqual([200, 200, 200]);
    const history = await revisionsOf(id);
    expect(history.map((entry) => entry.revision)).toEqual([4, 3, 2, 1]);
    // Each revision holds the data right after its own change: the last one is the item as it is.
    const current = (await server.request('GET', `/items/posts/${id}`, as())).body.data.data;
    expect(history[0]!.data).toEqual(current);
    expect(current.title).toBe('concurrent');
  });

  it('refuses data that no longer fits the fields with 409 and details', async () => {
    const id = await createPost({ title: 'fits' });
    expect((await update(id, { views: 7 })).status).toBe(200);
    const changed = await server.request('PATCH', '/collections/posts/fields/views', {
      token: server.adminToken,
      siteId,
      body: { type: 'boolean' },
    });
    expect(changed.status).toBe(200);
    const refused = await restore(id, 2);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('CONFLICT');
    expect(refused.body.error.details).toEqual([expect.objectContaining({ path: 'data.views' })]);
    await server.request('PATCH', '/collections/posts/fields/views', { token: server.adminToken, siteId, body: { type: 'integer' } });
  });

  it('answers 403 for an id the site never had, 404 for a revision it lacks, 400 for a malformed one, 403 without content:write', async () => {
    const id = await createPost({ title: 'x' });
    expect((await server.request('GET', `/items/posts/${new Types.ObjectId().toHexString()}/revisions`, as())).status).toBe(403);
    expect((await server.request('GET', '/items/posts/not-an-id/revisions', as())).status).toBe(403);
    expect((await restore(id, 9)).status).toBe(404);
    expect((await restore(id, 'zero')).status).toBe(400);
    expect((await server.request('POST', `/items/posts/${id}/revisions/1/restore`, as(viewer))).status).toBe(403);
  });

  it('records Copilot changes as via copilot with an undo, and approved ones with their approval', async () => {
    const id = await createPost({ title: 'before' });
    const chat = await server.request('POST', '/ai/chat', {
      token: server.adminToken,
      siteId,
      body: { message: `update item ${id} in posts with {"title":"by the copilot"}` },
    });
    expect(chat.status).toBe(200);
    expect(chat.body.data).toMatchObject({ status: 'executed', undo: { collection: 'posts', id, revision: 1 } });
    const [copilotRevision] = await revisionsOf(id);
    expect(copilotRevision).toMatchObject({ revision: 2, via: 'copilot', data: { title: 'by the copilot' } });

    const asked = await server.request('POST', '/ai/chat', {
      token: server.adminToken,
      siteId,
      body: { message: `delete item ${id} from posts` },
    });
    expect(asked.body.data.status).toBe('pending_approval');
    const approvalId = asked.body.data.approvalId as string;
    const decided = await server.request('POST', `/ai/approvals/${approvalId}/decide`, {
      token: server.adminToken,
      siteId,
      body: { decision: 'approved' },
    });
    expect(decided.status).toBe(200);
    expect(decided.body.data.status).toBe('approved');
    // An approved deletion of an item carries its undo too: the revision before the deletion.
    expect(decided.body.data.result).toEqual({ collection: 'posts', id, deleted: true, undo: { collection: 'posts', id, revision: 2 } });
    const [deletion] = await revisionsOf(id);
    expect(deletion).toMatchObject({ revision: 3, action: 'deleted', via: 'approval', approvalId });

    // The undo the Copilot offered restores the data from before its change.
    expect((await restore(id, 1)).body.data).toMatchObject({ id, data: { title: 'before' }, revision: 4 });
  });
});

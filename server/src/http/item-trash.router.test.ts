// A deleted item goes to the trash (docs/API.md, "Revisions, trash and undo": kind "item"): listed with its title for
// TRASH_RETENTION_DAYS, restored under its id by POST /trash/:id/restore (content:write) or by its revisions, and an
// approved deleteItem says on its card for how long it can be restored.
import { TrashListResponse, TrashRestoreResponse } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
let siteId: string;
let admin: { id: string; token: string };
let editor: { id: string; token: string };
let viewer: { token: string };
let otherAdmin: { token: string };
let otherSiteId: string;

beforeAll(async () => {
  server = await startTestServer('item-trash', { TRASH_RETENTION_DAYS: '14' });
  siteId = await server.createSite('Item trash');
  otherSiteId = await server.createSite('Elsewhere');
  admin = await server.createMember({ siteId, role: 'admin' });
  editor = await server.createMember({ siteId, role: 'editor' });
  viewer = await server.createMember({ siteId, role: 'viewer' });
  otherAdmin = await server.createMember({ siteId: otherSiteId, role: 'admin' });
  const created = await call('POST', '/collections', {
    name: 'recipes',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'minutes', type: 'integer' },
    ],
  });
  expect(created.status).toBe(201);
}, 60_000);
afterAll(async () => server?.close());

function call(method: string, path: string, body?: unknown, member: { token: string } = admin, site = siteId) {
  return server.request(method, path, { token: member.token, siteId: site, ...(body !== undefined ? { body } : {}) });
}

async function createItem(data: Record<string, unknown>): Promise<string> {
  const response = await call('POST', '/items/recipes', { data });
  expect(response.status).toBe(201);
  return response.body.data.id as string;
}

async function trash(member: { token: string } = admin, site = siteId) {
  const response = await call('GET', '/trash', undefined, member, site);
  expect(response.status).toBe(200);
  return TrashListResponse.parse(response.body);
}

describe('an item deleted over REST', () => {
  it('is in the trash with its title for the retention, and a restore brings it back under its id with its data', async () => {
    const id = await createItem({ title: 'Pancakes', minutes: 20 });
    expect((await call('PATCH', `/items/recipes/${id}`, { data: { minutes: 25 } })).status).toBe(200);
    expect((await call('DELETE', `/items/recipes/${id}`, undefined, editor)).status).toBe(204);
    expect((await call('GET', `/items/recipes/${id}`)).status).toBe(403);

    const listed = await trash(editor);
    expect(listed.meta.retentionDays).toBe(14);
    const entry = listed.data.find((candidate) => candidate.itemId === id);
    expect(entry).toMatchObject({
      kind: 'item',
      collection: 'recipes',
      itemId: id,
      title: 'Pancakes',
      items: 1,
      deletedBy: { id: editor.id },
    });
    expect((Date.parse(entry!.expiresAt) - Date.parse(entry!.deletedAt)) / 86_400_000).toBeCloseTo(14, 5);
    // Another site's admin sees nothing of it and cannot restore it.
    expect((await trash(otherAdmin, otherSiteId)).data).toEqual([]);
    expect((await call('POST', `/trash/${entry!.id}/restore`, undefined, otherAdmin, otherSiteId)).status).toBe(403);
    // A viewer sees it but may not restore it.
    expect((await trash(viewer)).data.map((candidate) => candidate.id)).toContain(entry!.id);
    const refused = await call('POST', `/trash/${entry!.id}/restore`, undefined, viewer);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/^Missing capability: .*content:write/);

    // An editor (content:write, no schema:write) restores it.
    const restored = await call('POST', `/trash/${entry!.id}/restore`, undefined, editor);
    expect(restored.status).toBe(200);
    expect(TrashRestoreResponse.parse(restored.body).data).toEqual({
      id: entry!.id,
      kind: 'item',
      collection: 'recipes',
      itemId: id,
      title: 'Pancakes',
      items: 1,
    });
    const item = await call('GET', `/items/recipes/${id}`);
    expect(item.status).toBe(200);
    expect(item.body.data.data).toEqual({ title: 'Pancakes', minutes: 25 });
    const revisions = await call('GET', `/items/recipes/${id}/revisions`);
    expect(revisions.body.data.map((revision: { action: string; via: string }) => `${revision.action}/${revision.via}`)).toEqual([
      'restored/restore',
      'deleted/rest',
      'updated/rest',
      'created/rest',
    ]);
    const audit = await call('GET', '/ai/audit');
    expect(audit.body.data[0]).toMatchObject({ action: 'restored', actor: { id: editor.id }, detail: { collection: 'recipes', id } });

    // It left the trash; a second restore finds nothing.
    expect((await trash()).data.some((candidate) => candidate.id === entry!.id)).toBe(false);
    expect((await call('POST', `/trash/${entry!.id}/restore`)).status).toBe(403);
  });

  it('leaves the trash when its revisions restore it instead', async () => {
    const id = await createItem({ title: 'Soup' });
    expect((await call('DELETE', `/items/recipes/${id}`)).status).toBe(204);
    expect((await trash()).data.some((candidate) => candidate.itemId === id)).toBe(true);
    const revisions = await call('GET', `/items/recipes/${id}/revisions`);
    const deleted = revisions.body.data[0] as { revision: number; action: string };
    expect(deleted.action).toBe('deleted');
    expect((await call('POST', `/items/recipes/${id}/revisions/${deleted.revision}/restore`)).status).toBe(200);
    expect((await call('GET', `/items/recipes/${id}`)).body.data.data).toEqual({ title: 'Soup' });
    expect((await trash()).data.some((candidate) => candidate.itemId === id)).toBe(false);
  });

  it('deleting it twice puts it in the trash once; the second delete is the usual 403', async () => {
    const id = await createItem({ title: 'Toast' });
    expect((await call('DELETE', `/items/recipes/${id}`)).status).toBe(204);
    expect((await call('DELETE', `/items/recipes/${id}`)).status).toBe(403);
    expect((await trash()).data.filter((candidate) => candidate.itemId === id)).toHaveLength(1);
  });

  it('cannot come back while its collection is in the trash itself: 409 saying so, and it stays', async () => {
    expect((await call('POST', '/collections', { name: 'notes', fields: [{ name: 'title', type: 'string' }] })).status).toBe(201);
    const note = await call('POST', '/items/notes', { data: { title: 'Buy flour' } });
    const id = note.body.data.id as string;
    expect((await call('DELETE', `/items/notes/${id}`)).status).toBe(204);
    expect((await call('DELETE', '/collections/notes')).status).toBe(204);
    const entries = (await trash()).data;
    const itemEntry = entries.find((candidate) => candidate.itemId === id)!;
    const refused = await call('POST', `/trash/${itemEntry.id}/restore`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/collection notes .* was deleted; restore the collection first/);

    const collectionEntry = entries.find((candidate) => candidate.kind === 'collection' && candidate.collection === 'notes')!;
    expect((await call('POST', `/trash/${collectionEntry.id}/restore`)).status).toBe(200);
    expect((await call('POST', `/trash/${itemEntry.id}/restore`)).status).toBe(200);
    expect((await call('GET', `/items/notes/${id}`)).body.data.data).toEqual({ title: 'Buy flour' });
  });
});

describe('an item deleted by an approved deleteItem', () => {
  it('the card says for how long it can be restored; once approved it is in the trash and comes back', async () => {
    const id = await createItem({ title: 'Lemon tart' });
    const asked = await call('POST', '/ai/chat', { message: `delete item ${id} from recipes` });
    expect(asked.body.data.status).toBe('pending_approval');
    const approvalId = asked.body.data.approvalId as string;
    const approval = await call('GET', `/ai/approvals/${approvalId}`);
    expect(approval.body.data.impact).toMatchObject({ restorableDays: 14, items: [{ id, title: 'Lemon tart' }] });

    const decided = await call('POST', `/ai/approvals/${approvalId}/decide`, { decision: 'approved' });
    expect(decided.body.data.status).toBe('approved');
    expect((await call('GET', `/items/recipes/${id}`)).status).toBe(403);
    const entry = (await trash()).data.find((candidate) => candidate.itemId === id);
    expect(entry).toMatchObject({ kind: 'item', title: 'Lemon tart', deletedBy: { id: admin.id } });

    expect((await call('POST', `/trash/${entry!.id}/restore`)).status).toBe(200);
    expect((await call('GET', `/items/recipes/${id}`)).body.data.data).toEqual({ title: 'Lemon tart' });
  });
});

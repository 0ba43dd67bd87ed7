// Target binding and impact over HTTP on the real composed server: an approval approves what it named,
// never a collection, field or item that took its place (the review's scenario and its relatives).
import { ApprovalJson } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
let siteId: string;
let ann: { id: string; token: string };
let bob: { id: string; token: string };

beforeAll(async () => {
  server = await startTestServer('target-binding', { DECIDE_WAIT_MS: '3000' });
  siteId = await server.createSite('Bindings');
  ann = await server.createMember({ siteId, role: 'admin' });
  bob = await server.createMember({ siteId, role: 'admin' });
});
afterAll(async () => server?.close());

const as = (member: { token: string }, method: string, path: string, body?: unknown) =>
  server.request(method, path, { token: member.token, siteId, ...(body === undefined ? {} : { body }) });

async function createCollection(name: string, items: string[]) {
  const created = await as(ann, 'POST', '/collections', {
    name,
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'body', type: 'text' },
    ],
  });
  expect(created.status).toBe(201);
  const ids: string[] = [];
  for (const title of items) {
    const item = await as(ann, 'POST', `/items/${name}`, { data: { title, body: `${title} body` } });
    expect(item.status).toBe(201);
    ids.push(item.body.data.id);
  }
  return ids;
}

async function ask(message: string): Promise<ApprovalJson> {
  const response = await as(ann, 'POST', '/ai/chat', { message });
  expect(response.body.data).toMatchObject({ status: 'pending_approval' });
  const read = await as(bob, 'GET', `/ai/approvals/${response.body.data.approvalId}`);
  return ApprovalJson.parse(read.body.data);
}

const auditOf = async (approvalId: string) =>
  ((await as(ann, 'GET', '/ai/audit?limit=100')).body.data as { action: string; approvalId?: string; detail?: unknown }[])
    .filter((entry) => entry.approvalId === approvalId)
    .reverse();

describe('target and impact at creation', () => {
  it('binds a deleteCollection to the collection’s id and previews its items', async () => {
    await createCollection('preview', ['First', 'Second']);
    const approval = await ask('delete collection preview');
    expect(approval.revision).toBe(1);
    expect(approval.target).toEqual({ kind: 'collection', collection: 'preview', collectionId: expect.any(String) });
    expect(approval.impact?.summary).toBe('Deletes the collection preview and its 2 items');
    expect(approval.impact?.items?.map((item) => item.title).sort()).toEqual(['First', 'Second']);
    // The deletion goes to the trash: the card says for how long it can be restored.
    expect(approval.impact?.restorableDays).toBe(30);
    expect(Date.parse(approval.expiresAt) - Date.parse(approval.createdAt)).toBe(259_200_000);
  });
});

describe('the review’s scenario: the target changed before the decision', () => {
  it('expires an approval whose collection was deleted and recreated; the new collection stays', async () => {
    await createCollection('drafts', ['old draft']);
    const approval = await ask('delete collection drafts');
    expect((await as(ann, 'DELETE', '/collections/drafts')).status).toBe(204);
    const [important] = await createCollection('drafts', ['new, important content']);

    const decided = await as(bob, 'POST', `/ai/approvals/${approval.id}/decide`, { decision: 'approved' });
    expect(decided.status).toBe(409);
    const after = ApprovalJson.parse((await as(bob, 'GET', `/ai/approvals/${approval.id}`)).body.data);
    expect(after).toMatchObject({ status: 'expired', reason: 'target_changed', revision: 2 });
    expect((await as(ann, 'GET', `/items/drafts/${important}`)).body.data.data.title).toBe('new, important content');
    expect((await auditOf(approval.id)).map((entry) => entry.action)).toEqual(['approval_requested', 'expired']);
    // Expired is final.
    expect((await as(bob, 'POST', `/ai/approvals/${approval.id}/decide`, { decision: 'rejected' })).status).toBe(409);
  });

  it('expires a deleteItem whose item was deleted, and a deleteField whose field was removed', async () => {
    const [itemId] = await createCollection('notes', ['a note']);
    const itemApproval = await ask(`delete item ${itemId} from notes`);
    expect(itemApproval.target).toEqual({ kind: 'item', collection: 'notes', collectionId: expect.any(String), id: itemId, revision: 1 });
    expect(itemApproval.impact).toMatchObject({
      summary: 'Deletes the item "a note" from notes',
      items: [{ id: itemId, title: 'a note' }],
    });
    const fieldApproval = await ask('delete field body from notes');
    expect(fieldApproval.target).toMatchObject({ kind: 'field', field: 'body' });
    expect(fieldApproval.impact).toEqual({
      summary: 'Deletes the field body of notes and its values in 1 item',
      values: ['a note body'],
      restorableDays: 30,
    });

    expect((await as(ann, 'DELETE', `/items/notes/${itemId}`)).status).toBe(204);
    expect((await as(ann, 'DELETE', '/collections/notes/fields/body')).status).toBe(204);

    for (const approval of [itemApproval, fieldApproval]) {
      const decided = await as(bob, 'POST', `/ai/approvals/${approval.id}/decide`, { decision: 'approved', revision: 1 });
      expect(decided.status).toBe(409);
      const after = (await as(bob, 'GET', `/ai/approvals/${approval.id}`)).body.data;
      expect(after).toMatchObject({ status: 'expired', reason: 'target_changed' });
    }
  });

  it('binds a deleteItem to the revision its approver saw: an item edited since is not deleted', async () => {
    const [itemId] = await createCollection('memos', ['first draft']);
    const approval = await ask(`delete item ${itemId} from memos`);
    expect(approval.target).toMatchObject({ kind: 'item', id: itemId, revision: 1 });
    expect((await as(ann, 'PATCH', `/items/memos/${itemId}`, { data: { title: 'rewritten, keep me' } })).status).toBe(200);

    const decided = await as(bob, 'POST', `/ai/approvals/${approval.id}/decide`, { decision: 'approved', revision: 1 });
    expect(decided.status).toBe(409);
    expect((await as(bob, 'GET', `/ai/approvals/${approval.id}`)).body.data).toMatchObject({ status: 'expired', reason: 'target_changed' });
    expect((await as(ann, 'GET', `/items/memos/${itemId}`)).body.data.data.title).toBe('rewritten, keep me');
  });

  it('refreshes a grown impact instead of running it: 409, a new revision, then approving what is shown works', async () => {
    await createCollection('growing', ['one']);
    const approval = await ask('delete collection growing');
    await as(ann, 'POST', '/items/growing', { data: { title: 'two' } });

    const first = await as(bob, 'POST', `/ai/approvals/${approval.id}/decide`, { decision: 'approved', revision: 1 });
    expect(first.status).toBe(409);
    const refreshed = ApprovalJson.parse((await as(bob, 'GET', `/ai/approvals/${approval.id}`)).body.data);
    expect(refreshed).toMatchObject({ status: 'pending', revision: 2 });
    expect(refreshed.impact?.summary).toBe('Deletes the collection growing and its 2 items');
    expect((await as(ann, 'GET', '/collections/growing')).status).toBe(200);

    const second = await as(bob, 'POST', `/ai/approvals/${approval.id}/decide`, { decision: 'approved', revision: 2 });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ status: 'approved', revision: 4 });
    expect((await as(ann, 'GET', '/collections/growing')).status).toBe(404);
  });

  it('runs an approval whose target did not change', async () => {
    await createCollection('doomed', ['x']);
    const approval = await ask('delete collection doomed');
    const decided = await as(bob, 'POST', `/ai/approvals/${approval.id}/decide`, { decision: 'approved', revision: 1 });
    expect(decided.status).toBe(200);
    expect(decided.body.data).toMatchObject({ status: 'approved', decidedBy: { id: bob.id } });
    expect((await as(ann, 'GET', '/collections/doomed')).status).toBe(404);
  });
});

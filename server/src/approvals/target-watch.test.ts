// A pending approval whose target changes expires on its own, with reason target_changed, within 10 seconds of the
// change, pushed as approval-decided (docs/API.md, decide rules) — on the real composed server, the change made over REST.
import { type Approval, ApprovalJson } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { eventually } from '../../test-support/eventually.js';

const WITHIN_MS = 10_000;
let server: TestServer;
let siteId: string;
let admin: { id: string; token: string };

beforeAll(async () => {
  // The TTL sweep is slow here on purpose: whatever expires below, the target watch expired it.
  server = await startTestServer('target-watch', { APPROVAL_EXPIRY_SWEEP_MS: '15000' });
  siteId = await server.createSite('Target watch');
  admin = await server.createMember({ siteId, role: 'admin' });
});
afterAll(async () => server?.close());

const as = (method: string, path: string, body?: unknown) =>
  server.request(method, path, { token: admin.token, siteId, ...(body === undefined ? {} : { body }) });

async function ask(message: string): Promise<Approval> {
  const asked = await as('POST', '/ai/chat', { message });
  expect(asked.body.data.status).toBe('pending_approval');
  return ApprovalJson.parse((await as('GET', `/ai/approvals/${asked.body.data.approvalId}`)).body.data);
}

/** Polls until the approval is no longer pending or WITHIN_MS after `changedAt` has passed (then it is still pending). */
async function settledAfter(id: string, changedAt: number, request: typeof as = as): Promise<Approval> {
  let approval = ApprovalJson.parse((await request('GET', `/ai/approvals/${id}`)).body.data);
  while (approval.status === 'pending' && Date.now() < changedAt + WITHIN_MS) {
    await new Promise((wait) => setTimeout(wait, 100));
    approval = ApprovalJson.parse((await request('GET', `/ai/approvals/${id}`)).body.data);
  }
  return approval;
}

async function expectExpiredByChange(approval: Approval, changedAt: number, seqBefore: number) {
  const after = await settledAfter(approval.id, changedAt);
  expect(after).toMatchObject({ status: 'expired', reason: 'target_changed', revision: approval.revision + 1 });
  expect(after.decidedBy).toBeUndefined();
  expect(Date.parse(after.updatedAt) - changedAt).toBeLessThan(WITHIN_MS);
  const decided = await eventually(async () => {
    const events = await server.composed.domain.eventLog.forSite(siteId).listAfter(seqBefore);
    const found = events.filter((event) => event.name === 'approval-decided' && event.payload.approval.id === approval.id);
    expect(found).toHaveLength(1);
    return found;
  });
  expect(decided[0]!.payload).toMatchObject({ approval: { id: approval.id, status: 'expired', reason: 'target_changed' } });
}

const seqNow = () => server.composed.domain.eventLog.forSite(siteId).currentSeq();

it('expires a pending deletion of a collection that was deleted and recreated, and keeps one whose collection only got items', async () => {
  expect((await as('POST', '/collections', { name: 'posts', fields: [{ name: 'title', type: 'string' }] })).status).toBe(201);
  expect((await as('POST', '/collections', { name: 'pages', fields: [{ name: 'title', type: 'string' }] })).status).toBe(201);
  const approval = await ask('delete collection posts');
  const untouched = await ask('delete collection pages');
  const seq = await seqNow();
  const changedAt = Date.now();
  expect((await as('DELETE', '/collections/posts')).status).toBe(204);
  expect((await as('POST', '/collections', { name: 'posts', fields: [{ name: 'title', type: 'string' }] })).status).toBe(201);
  expect((await as('POST', '/items/pages', { data: { title: 'About' } })).status).toBe(201);
  await expectExpiredByChange(approval, changedAt, seq);
  // The other collection's approval saw an item added (its impact, not its target): still pending.
  expect((await as('GET', `/ai/approvals/${untouched.id}`)).body.data).toMatchObject({ status: 'pending', revision: untouched.revision });
  const audit = (await as('GET', '/ai/audit?limit=100')).body.data.filter(
    (entry: { approvalId?: string }) => entry.approvalId === approval.id,
  );
  expect(audit[0]).toMatchObject({ action: 'expired', actor: { id: 'system' }, detail: { reason: 'target_changed' } });
});

it('expires a pending deletion of an item edited over REST', async () => {
  expect((await as('POST', '/collections', { name: 'notes', fields: [{ name: 'title', type: 'string' }] })).status).toBe(201);
  const item = (await as('POST', '/items/notes', { data: { title: 'Keep me' } })).body.data;
  const approval = await ask(`delete item ${item.id} from notes`);
  const seq = await seqNow();
  const changedAt = Date.now();
  expect((await as('PATCH', `/items/notes/${item.id}`, { data: { title: 'Changed meanwhile' } })).status).toBe(200);
  await expectExpiredByChange(approval, changedAt, seq);
});

it('expires a pending field change when the field is changed in place or deleted', async () => {
  expect(
    (
      await as('POST', '/collections', {
        name: 'cars',
        fields: [
          { name: 'colour', type: 'string' },
          { name: 'make', type: 'string' },
        ],
      })
    ).status,
  ).toBe(201);
  const rename = await ask('rename field colour in cars to paint');
  let seq = await seqNow();
  let changedAt = Date.now();
  expect((await as('PATCH', '/collections/cars/fields/colour', { required: true })).status).toBe(200);
  await expectExpiredByChange(rename, changedAt, seq);

  const removal = await ask('delete field make from cars');
  seq = await seqNow();
  changedAt = Date.now();
  expect((await as('DELETE', '/collections/cars/fields/make')).status).toBe(204);
  await expectExpiredByChange(removal, changedAt, seq);
});

describe('an item change waiting for approval (the policy asks before updateItem)', () => {
  beforeAll(async () => {
    expect((await as('PUT', '/ai/policy', { skills: { updateItem: 'ask' } })).status).toBe(200);
    expect((await as('POST', '/collections', { name: 'drafts', fields: [{ name: 'title', type: 'string' }] })).status).toBe(201);
  });
  const create = async (title: string) => (await as('POST', '/items/drafts', { data: { title } })).body.data as { id: string };

  it('is bound to the item as it was asked about: its collection, id and revision', async () => {
    const item = await create('Bound');
    const approval = await ask(`update item ${item.id} in drafts with {"title": "Renamed"}`);
    expect(approval.target).toMatchObject({ kind: 'item', collection: 'drafts', id: item.id, revision: 1 });
    expect(approval.target?.collectionId).toEqual(expect.any(String));
    expect(approval.impact).toMatchObject({ items: [{ id: item.id, title: 'Bound' }] });
  });

  it('expires when the item is edited over REST, and one on another item stays pending', async () => {
    const item = await create('Edited meanwhile');
    const other = await create('Left alone');
    const approval = await ask(`update item ${item.id} in drafts with {"title": "From the Copilot"}`);
    const untouched = await ask(`update item ${other.id} in drafts with {"title": "From the Copilot"}`);
    const seq = await seqNow();
    const changedAt = Date.now();
    expect((await as('PATCH', `/items/drafts/${item.id}`, { data: { title: 'Typed by a person' } })).status).toBe(200);
    await expectExpiredByChange(approval, changedAt, seq);
    expect((await as('GET', `/ai/approvals/${untouched.id}`)).body.data).toMatchObject({ status: 'pending', revision: untouched.revision });
  });

  it('expires when the item is deleted', async () => {
    const item = await create('Deleted meanwhile');
    const approval = await ask(`update item ${item.id} in drafts with {"title": "Too late"}`);
    const seq = await seqNow();
    const changedAt = Date.now();
    expect((await as('DELETE', `/items/drafts/${item.id}`)).status).toBe(204);
    await expectExpiredByChange(approval, changedAt, seq);
  });
});

it('expires a pending deletion of an item deleted over REST meanwhile', async () => {
  expect((await as('POST', '/collections', { name: 'memos', fields: [{ name: 'title', type: 'string' }] })).status).toBe(201);
  const item = (await as('POST', '/items/memos', { data: { title: 'Gone' } })).body.data;
  const approval = await ask(`delete item ${item.id} from memos`);
  const seq = await seqNow();
  const changedAt = Date.now();
  expect((await as('DELETE', `/items/memos/${item.id}`)).status).toBe(204);
  await expectExpiredByChange(approval, changedAt, seq);
});

it('watches every pending approval: the oldest of 101 expires when its collection is deleted', async () => {
  // Its own site, so that its pending approvals are the only ones there.
  const crowdedSite = await server.createSite('Target watch, crowded');
  const crowdedAdmin = await server.createMember({ siteId: crowdedSite, role: 'admin' });
  const request = (method: string, path: string, body?: unknown) =>
    server.request(method, path, { token: crowdedAdmin.token, siteId: crowdedSite, ...(body === undefined ? {} : { body }) });
  for (const name of ['archive', 'other']) {
    expect((await request('POST', '/collections', { name, fields: [{ name: 'title', type: 'string' }] })).status).toBe(201);
  }
  const asked = await request('POST', '/ai/chat', { message: 'delete collection archive' });
  const oldest = ApprovalJson.parse((await request('GET', `/ai/approvals/${asked.body.data.approvalId}`)).body.data);
  // A hundred newer ones, about the other collection: the approvals list shows the newest 100 only.
  const approvals = server.composed.domain.aiStores.forSite(crowdedSite).approvals;
  const { id: _id, siteId: _siteId, revision: _revision, steps: _steps, impact: _impact, ...rest } = oldest;
  for (let index = 0; index < 100; index++) {
    const at = new Date(Date.now() + 1000 + index).toISOString();
    await approvals.insert({
      ...rest,
      arguments: { name: 'other' },
      target: { ...oldest.target!, collection: 'other' },
      createdAt: at,
      updatedAt: at,
    });
  }
  expect((await request('GET', '/ai/approvals?status=pending')).body.data.map((approval: Approval) => approval.id)).not.toContain(
    oldest.id,
  );

  const changedAt = Date.now();
  expect((await request('DELETE', '/collections/archive')).status).toBe(204);
  const after = await settledAfter(oldest.id, changedAt, request);
  expect(after).toMatchObject({ status: 'expired', reason: 'target_changed' });
  // The hundred about the other collection were looked at by target only, and stay pending.
  expect(await approvals.count({ status: 'pending' })).toBe(100);
});

// Deciding, further rules, over HTTP on the real composed server: revision-checked decisions (edits: edit-approval.test.ts),
// four-eyes and the per-site Copilot policy (docs/API.md, "Deciding, further rules", "Copilot policy").
import { ApprovalJson, CopilotPolicy, SKILL_NAMES } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

type Member = { id: string; token: string };
let server: TestServer;
let siteId: string;
let ann: Member;
let bob: Member;
let editor: Member;

beforeAll(async () => {
  server = await startTestServer('decision-rules', { DECIDE_WAIT_MS: '3000' });
  siteId = await server.createSite('Rules');
  ann = await server.createMember({ siteId, role: 'admin' });
  bob = await server.createMember({ siteId, role: 'admin' });
  editor = await server.createMember({ siteId, role: 'editor' });
});
afterAll(async () => server?.close());

const as = (member: Member, method: string, path: string, body?: unknown) =>
  server.request(method, path, { token: member.token, siteId, ...(body === undefined ? {} : { body }) });
const decide = (member: Member, id: string, body: unknown) => as(member, 'POST', `/ai/approvals/${id}/decide`, body);
const read = async (id: string) => ApprovalJson.parse((await as(bob, 'GET', `/ai/approvals/${id}`)).body.data);
const createCollection = async (name: string) =>
  expect((await as(ann, 'POST', '/collections', { name, fields: [{ name: 'title', type: 'string' }] })).status).toBe(201);

async function ask(member: Member, message: string): Promise<string> {
  const response = await as(member, 'POST', '/ai/chat', { message });
  expect(response.body.data).toMatchObject({ status: 'pending_approval' });
  return response.body.data.approvalId;
}

describe('revision-checked decisions', () => {
  it('answers 409 to a decision made on an older revision, and decides on the current one', async () => {
    // Fails once (no such collection): pending again with lastError, revision 3.
    const id = await ask(ann, 'delete collection later');
    const failed = await decide(bob, id, { decision: 'approved', revision: 1 });
    expect(failed.body.data).toMatchObject({ status: 'pending', revision: 3, lastError: expect.any(String) });

    const stale = await decide(ann, id, { decision: 'rejected', revision: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toBe('This approval changed since you saw it; review it again');
    expect((await read(id)).status).toBe('pending');

    const current = await decide(ann, id, { decision: 'rejected', revision: 3, reason: 'seen the error' });
    expect(current.status).toBe(200);
    expect(current.body.data).toMatchObject({ status: 'rejected', revision: 4 });
  });

  it('counts every change: 1 at creation, +1 per transition, in the approval and its events', async () => {
    await createCollection('counted');
    const before = await server.composed.domain.eventLog.forSite(siteId).currentSeq();
    const id = await ask(ann, 'delete collection counted');
    const approved = await decide(bob, id, { decision: 'approved', revision: 1 });
    expect(approved.body.data).toMatchObject({ status: 'approved', revision: 3 });
    const events = (await server.composed.domain.eventLog.forSite(siteId).listAfter(before)).flatMap((event) =>
      'approval' in event.payload && event.payload.approval.id === id ? [[event.name, event.payload.approval.revision]] : [],
    );
    expect(events).toEqual([
      ['approval-created', 1],
      ['approval-decided', 2],
      ['approval-decided', 3],
    ]);
  });

  it('refuses a revision that is not a positive integer with 400', async () => {
    const id = await ask(ann, 'delete collection typed');
    const response = await decide(bob, id, { decision: 'approved', revision: 'one' });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([expect.objectContaining({ path: 'revision' })]);
  });
});

describe('Copilot policy and four-eyes', () => {
  it('GET lists every skill with its default mode; any member may read it', async () => {
    const response = await as(editor, 'GET', '/ai/policy');
    expect(response.status).toBe(200);
    const policy = CopilotPolicy.parse(response.body.data);
    expect(Object.keys(policy.skills).sort()).toEqual([...SKILL_NAMES].sort());
    expect(policy).toMatchObject({ selfApproval: true, skills: { deleteCollection: 'ask', listCollections: 'auto', createItem: 'auto' } });
  });

  it('PUT needs users:write and approvals:decide; a dangerous skill set to auto → 400; an unknown skill → 400', async () => {
    expect((await as(editor, 'PUT', '/ai/policy', { selfApproval: false })).status).toBe(403);
    const dangerous = await as(ann, 'PUT', '/ai/policy', { skills: { deleteCollection: 'auto' } });
    expect(dangerous.status).toBe(400);
    expect(dangerous.body.error.details).toEqual([expect.objectContaining({ path: 'skills.deleteCollection' })]);
    expect((await as(ann, 'PUT', '/ai/policy', { skills: { dropEverything: 'ask' } })).status).toBe(400);
    expect((await as(ann, 'GET', '/ai/policy')).body.data.skills.deleteCollection).toBe('ask');
  });

  it('off denies with a clear message; ask makes a safe skill wait; changes are audited', async () => {
    const put = await as(ann, 'PUT', '/ai/policy', { skills: { listCollections: 'off', createItem: 'ask' } });
    expect(put.status).toBe(200);
    expect(put.body.data.skills).toMatchObject({ listCollections: 'off', createItem: 'ask', deleteItem: 'ask', listItems: 'auto' });
    const off = await as(editor, 'POST', '/ai/chat', { message: 'list collections' });
    expect(off.body.data).toMatchObject({ status: 'denied', message: '“List collections” is turned off for this site' });
    await createCollection('asked');
    const asked = await as(editor, 'POST', '/ai/chat', { message: 'create item in asked with {"title":"hi"}' });
    expect(asked.body.data.status).toBe('pending_approval');
    expect((await as(ann, 'GET', '/items/asked')).body.meta.total).toBe(0);
    const audit = (await as(ann, 'GET', '/ai/audit?limit=100')).body.data as { action: string; actor: { id: string }; detail: unknown }[];
    expect(audit.find((entry) => entry.action === 'policy_changed')).toMatchObject({
      actor: { id: ann.id },
      detail: { skills: { listCollections: { from: 'auto', to: 'off' }, createItem: { from: 'auto', to: 'ask' } } },
    });
    await as(ann, 'PUT', '/ai/policy', { skills: { listCollections: 'auto', createItem: 'auto' } });
  });

  it('without selfApproval, the requester cannot approve their own request but may withdraw it; someone else may approve', async () => {
    expect((await as(ann, 'PUT', '/ai/policy', { selfApproval: false })).body.data.selfApproval).toBe(false);
    await createCollection('four_eyes');
    const own = await ask(ann, 'delete collection four_eyes');
    const refused = await decide(ann, own, { decision: 'approved' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Someone other than the requester must approve');
    expect((await decide(bob, own, { decision: 'approved' })).body.data.status).toBe('approved');

    const withdrawn = await ask(ann, 'delete collection whatever');
    expect((await decide(ann, withdrawn, { decision: 'rejected' })).body.data.status).toBe('rejected');
    await as(ann, 'PUT', '/ai/policy', { selfApproval: true });
  });
});

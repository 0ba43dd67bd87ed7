// Editing is its own step (docs/API.md "Deciding, further rules" and "Runs and plans" → Edits), over HTTP on the real
// composed server: PATCH stores a new revision with its target and impact taken again and runs nothing; decide never
// takes arguments; with `selfApproval: false` the last editor may not approve (issue 26, item 4).
import { ApprovalJson, EDIT_FIRST_MESSAGE } from '@lumibase/shared';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

type Member = { id: string; token: string };
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer('edit-approval', { DECIDE_WAIT_MS: '5000' });
});
afterAll(async () => server?.close());

/** A site of its own, with two admins (ann asks, bob edits), a third (cy), an editor and a decider without schema:write. */
async function site(name: string) {
  const siteId = await server.createSite(name);
  const ann = await server.createMember({ siteId, role: 'admin' });
  const bob = await server.createMember({ siteId, role: 'admin' });
  const cy = await server.createMember({ siteId, role: 'admin' });
  const editor = await server.createMember({ siteId, role: 'editor' });
  const narrow = await server.createMember({ siteId, role: 'viewer', capabilities: ['approvals:decide'] });
  const as = (member: Member, method: string, path: string, body?: unknown) =>
    server.request(method, path, { token: member.token, siteId, ...(body === undefined ? {} : { body }) });
  return {
    siteId,
    ann,
    bob,
    cy,
    editor,
    narrow,
    as,
    edit: (member: Member, id: string, body: unknown) => as(member, 'PATCH', `/ai/approvals/${id}`, body),
    decide: (member: Member, id: string, body: unknown) => as(member, 'POST', `/ai/approvals/${id}/decide`, body),
    read: async (id: string) => ApprovalJson.parse((await as(ann, 'GET', `/ai/approvals/${id}`)).body.data),
    async collection(name: string, items = 0) {
      expect((await as(ann, 'POST', '/collections', { name, fields: [{ name: 'title', type: 'string' }] })).status).toBe(201);
      for (let index = 0; index < items; index++) {
        expect((await as(ann, 'POST', `/items/${name}`, { data: { title: `t${index}` } })).status).toBe(201);
      }
    },
    async ask(member: Member, message: string): Promise<string> {
      const response = await as(member, 'POST', '/ai/chat', { message });
      expect(response.body.data).toMatchObject({ status: 'pending_approval' });
      return response.body.data.approvalId;
    },
    async audit(approvalId: string) {
      const entries = (await as(ann, 'GET', '/ai/audit?limit=100')).body.data as {
        action: string;
        approvalId?: string;
        actor: { id: string };
        detail?: Record<string, unknown>;
      }[];
      return entries.filter((entry) => entry.approvalId === approvalId).reverse();
    },
    async socket(member: Member): Promise<{ socket: Socket; decided: ApprovalJson[] }> {
      const decided: ApprovalJson[] = [];
      const socket = io(server.baseUrl, {
        path: '/socket.io',
        auth: { token: member.token, siteId },
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
      });
      socket.on('approval-decided', (payload: { approval: ApprovalJson }) => void decided.push(payload.approval));
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      return { socket, decided };
    },
  };
}

describe('PATCH /ai/approvals/:id', () => {
  it('stores the edit as a new revision with a fresh target and impact, audited and pushed; nothing runs until approved', async () => {
    const s = await site('Edits');
    await s.collection('keep_me', 2);
    await s.collection('drop_me', 0);
    const id = await s.ask(s.ann, 'delete collection keep_me');
    const asked = await s.read(id);
    expect(asked.impact?.summary).toBe('Deletes the collection keep_me and its 2 items');
    const { socket, decided } = await s.socket(s.cy);

    const response = await s.edit(s.bob, id, { revision: 1, arguments: { name: 'drop_me' } });
    expect(response.status).toBe(200);
    const edited = ApprovalJson.parse(response.body.data);
    expect(edited).toMatchObject({
      status: 'pending',
      revision: 2,
      attempts: 0,
      arguments: { name: 'drop_me' },
      originalArguments: { name: 'keep_me' },
      editedBy: { id: s.bob.id },
      target: { kind: 'collection', collection: 'drop_me' },
      impact: { summary: 'Deletes the collection drop_me and its 0 items' },
    });
    expect(edited.decidedBy).toBeUndefined();
    // Nothing ran: both collections are there.
    expect((await s.as(s.ann, 'GET', '/collections/keep_me')).status).toBe(200);
    expect((await s.as(s.ann, 'GET', '/collections/drop_me')).status).toBe(200);
    expect(await s.read(id)).toEqual(edited);

    // Pushed to every admin's socket as approval-decided at revision + 1, with the new impact.
    await eventually(async () => {
      expect(decided.find((approval) => approval.id === id && approval.revision === 2)).toMatchObject({
        status: 'pending',
        arguments: { name: 'drop_me' },
        impact: { summary: 'Deletes the collection drop_me and its 0 items' },
      });
    });
    socket.close();
    const audit = await s.audit(id);
    expect(audit.map((entry) => entry.action)).toEqual(['approval_requested', 'edited']);
    expect(audit[1]).toMatchObject({
      actor: { id: s.bob.id },
      detail: { revision: 2, previousArguments: { name: 'keep_me' }, arguments: { name: 'drop_me' } },
    });

    // A second edit keeps the model's proposal as the original and names the new editor.
    const again = await s.edit(s.cy, id, { revision: 2, steps: [{ arguments: { name: 'drop_me' } }] });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ revision: 3, originalArguments: { name: 'keep_me' }, editedBy: { id: s.cy.id } });

    // Approving runs what the new revision shows.
    const approved = await s.decide(s.ann, id, { decision: 'approved', revision: 3 });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 'approved', arguments: { name: 'drop_me' }, decidedBy: { id: s.ann.id } });
    expect((await s.as(s.ann, 'GET', '/collections/drop_me')).status).toBe(404);
    expect((await s.as(s.ann, 'GET', '/collections/keep_me')).status).toBe(200);
    expect((await s.audit(id)).map((entry) => entry.action)).toEqual(['approval_requested', 'edited', 'edited', 'approved']);
  });

  it('answers 409 to a stale revision and to an approval no longer pending; nothing changes', async () => {
    const s = await site('Stale edits');
    await s.collection('stale_one');
    const id = await s.ask(s.ann, 'delete collection stale_one');
    expect((await s.edit(s.bob, id, { revision: 1, arguments: { name: 'other_one' } })).status).toBe(200);
    const stale = await s.edit(s.cy, id, { revision: 1, arguments: { name: 'third_one' } });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toBe('This approval changed since you saw it; review it again');
    expect(await s.read(id)).toMatchObject({ revision: 2, arguments: { name: 'other_one' }, editedBy: { id: s.bob.id } });

    expect((await s.decide(s.ann, id, { decision: 'rejected', revision: 2 })).status).toBe(200);
    const settled = await s.edit(s.bob, id, { revision: 3, arguments: { name: 'stale_one' } });
    expect(settled.status).toBe(409);
    expect(await s.read(id)).toMatchObject({ status: 'rejected', revision: 3, arguments: { name: 'other_one' } });
  });

  it('answers 400 with details for arguments the skill’s schema refuses, and for a body without a revision', async () => {
    const s = await site('Invalid edits');
    const id = await s.ask(s.ann, 'delete collection typo_name');
    const invalid = await s.edit(s.bob, id, { revision: 1, arguments: { name: 'Not A Name!' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details).toEqual([expect.objectContaining({ path: 'arguments.name' })]);
    const unknown = await s.edit(s.bob, id, { revision: 1, arguments: { name: 'fine', extra: 1 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([expect.objectContaining({ path: 'arguments.extra' })]);
    const removed = await s.edit(s.bob, id, { revision: 1, steps: [null] });
    expect(removed.status).toBe(400);
    expect(removed.body.error.details).toEqual([expect.objectContaining({ path: 'steps.0', message: 'at least one step must remain' })]);
    expect((await s.edit(s.bob, id, { arguments: { name: 'fine' } })).status).toBe(400);
    expect((await s.edit(s.bob, id, { revision: 1 })).status).toBe(400);
    expect(await s.read(id)).toMatchObject({ status: 'pending', revision: 1, arguments: { name: 'typo_name' } });
    expect((await s.audit(id)).map((entry) => entry.action)).toEqual(['approval_requested']);
  });

  it('needs approvals:decide and the skill’s capabilities (403)', async () => {
    const s = await site('Edit access');
    const id = await s.ask(s.ann, 'delete collection guarded');
    expect((await s.edit(s.editor, id, { revision: 1, arguments: { name: 'other' } })).status).toBe(403);
    const narrow = await s.edit(s.narrow, id, { revision: 1, arguments: { name: 'other' } });
    expect(narrow.status).toBe(403);
    expect(narrow.body.error.message).toBe('Deciding needs schema:write');
    expect(await s.read(id)).toMatchObject({ revision: 1, arguments: { name: 'guarded' } });
  });
});

describe('decide never edits', () => {
  it('answers 400 to arguments in the decide body, saying to edit first; nothing runs', async () => {
    const s = await site('No edit at decide');
    await s.collection('spared');
    await s.collection('victim');
    const id = await s.ask(s.ann, 'delete collection spared');
    const response = await s.decide(s.bob, id, { decision: 'approved', revision: 1, arguments: { name: 'victim' } });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([{ path: 'arguments', message: EDIT_FIRST_MESSAGE }]);
    expect(EDIT_FIRST_MESSAGE).toMatch(/edit first|save the edit first/i);
    expect((await s.as(s.ann, 'GET', '/collections/victim')).status).toBe(200);
    expect((await s.as(s.ann, 'GET', '/collections/spared')).status).toBe(200);
    expect(await s.read(id)).toMatchObject({ status: 'pending', revision: 1, attempts: 0, arguments: { name: 'spared' } });
  });

  it('a stale approval’s own arguments re-sent do not delete a collection recreated since; the approval expires', async () => {
    const s = await site('Recreated');
    await s.collection('phoenix');
    const id = await s.ask(s.ann, 'delete collection phoenix');
    expect((await s.read(id)).target?.collectionId).toBeDefined();
    expect((await s.as(s.ann, 'DELETE', '/collections/phoenix')).status).toBe(204);
    await s.collection('phoenix', 1);

    // The old way round the target check: approving with the approval's own arguments "as an edit".
    const resent = await s.decide(s.bob, id, { decision: 'approved', revision: 1, arguments: { name: 'phoenix' } });
    expect(resent.status).toBe(400);
    expect((await s.as(s.ann, 'GET', '/items/phoenix')).body.meta.total).toBe(1);

    // Its target changed: the approval expires on its own (docs/API.md: within 10 seconds, pushed), so neither an edit
    // nor a decision can take it over to the recreated collection.
    const expired = await eventually(async () => {
      const approval = await s.read(id);
      expect(approval.status).toBe('expired');
      return approval;
    });
    expect(expired.reason).toBe('target_changed');
    expect((await s.edit(s.bob, id, { revision: expired.revision, arguments: { name: 'phoenix' } })).status).toBe(409);
    expect((await s.decide(s.cy, id, { decision: 'approved', revision: expired.revision })).status).toBe(409);
    expect((await s.as(s.ann, 'GET', '/items/phoenix')).body.meta.total).toBe(1);
  });
});

describe('four-eyes covers the last editor', () => {
  it('with selfApproval false, neither the requester nor the last editor may approve; another admin may; rejecting stays allowed', async () => {
    const s = await site('Four eyes');
    expect((await s.as(s.ann, 'PUT', '/ai/policy', { selfApproval: false })).body.data.selfApproval).toBe(false);
    await s.collection('asked_for');
    await s.collection('edited_to');
    const id = await s.ask(s.ann, 'delete collection asked_for');
    expect((await s.edit(s.bob, id, { revision: 1, arguments: { name: 'edited_to' } })).status).toBe(200);

    const byEditor = await s.decide(s.bob, id, { decision: 'approved', revision: 2 });
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.error.message).toBe('Someone other than the last editor must approve');
    const byRequester = await s.decide(s.ann, id, { decision: 'approved', revision: 2 });
    expect(byRequester.status).toBe(403);
    expect(byRequester.body.error.message).toBe('Someone other than the requester must approve');
    expect((await s.as(s.ann, 'GET', '/collections/edited_to')).status).toBe(200);

    const approved = await s.decide(s.cy, id, { decision: 'approved', revision: 2 });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 'approved', decidedBy: { id: s.cy.id } });
    expect((await s.as(s.ann, 'GET', '/collections/edited_to')).status).toBe(404);
    expect((await s.as(s.ann, 'GET', '/collections/asked_for')).status).toBe(200);

    // The last editor may still reject what they edited.
    const other = await s.ask(s.ann, 'delete collection asked_for');
    expect((await s.edit(s.bob, other, { revision: 1, arguments: { name: 'asked_for' } })).status).toBe(200);
    const rejected = await s.decide(s.bob, other, { decision: 'rejected', revision: 2 });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.status).toBe('rejected');
  });

  it('with selfApproval true (the default), the last editor may approve', async () => {
    const s = await site('Self approval allowed');
    await s.collection('mine_too');
    const id = await s.ask(s.ann, 'delete collection mine_too');
    expect((await s.edit(s.bob, id, { revision: 1, arguments: { name: 'mine_too' } })).status).toBe(200);
    expect((await s.decide(s.bob, id, { decision: 'approved', revision: 2 })).body.data).toMatchObject({ status: 'approved' });
  });
});

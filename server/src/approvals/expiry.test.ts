// Expiry with a short APPROVAL_TTL_SECONDS on the real composed server: the sweep expires a pending approval
// within 15 s of its expiresAt, the approval-decided event is in the site's log, deciding → 409, audited.
import { ApprovalJson } from '@lumibase/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { eventually } from '../../test-support/eventually.js';

const TTL_SECONDS = 2;
let server: TestServer;
let siteId: string;
let admin: { id: string; token: string };

beforeAll(async () => {
  server = await startTestServer('expiry', { APPROVAL_TTL_SECONDS: String(TTL_SECONDS), APPROVAL_EXPIRY_SWEEP_MS: '250' });
  siteId = await server.createSite('Expiry');
  admin = await server.createMember({ siteId, role: 'admin' });
});
afterAll(async () => server?.close());

const as = (method: string, path: string, body?: unknown) =>
  server.request(method, path, { token: admin.token, siteId, ...(body === undefined ? {} : { body }) });

it('expires a pending approval after its TTL: pushed as approval-decided, final, audited, deciding → 409', async () => {
  const seq = await server.composed.domain.eventLog.forSite(siteId).currentSeq();
  const asked = await as('POST', '/ai/chat', { message: 'delete collection aging' });
  const created = ApprovalJson.parse((await as('GET', `/ai/approvals/${asked.body.data.approvalId}`)).body.data);
  expect(Date.parse(created.expiresAt) - Date.parse(created.createdAt)).toBe(TTL_SECONDS * 1000);

  let approval = created;
  const deadline = Date.parse(created.expiresAt) + 15_000;
  while (approval.status === 'pending' && Date.now() < deadline) {
    await new Promise((wait) => setTimeout(wait, 100));
    approval = ApprovalJson.parse((await as('GET', `/ai/approvals/${created.id}`)).body.data);
  }
  expect(approval).toMatchObject({ status: 'expired', reason: 'ttl', revision: 2 });
  expect(Date.parse(approval.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.expiresAt));
  expect(Date.parse(approval.updatedAt) - Date.parse(created.expiresAt)).toBeLessThan(15_000);

  // The event is relayed from the outbox just after the status write: wait for it, then check it is the only one.
  const decided = await eventually(async () => {
    const events = await server.composed.domain.eventLog.forSite(siteId).listAfter(seq);
    const found = events.filter((event) => event.name === 'approval-decided');
    expect(found).toHaveLength(1);
    return found;
  });
  expect(decided[0]!.payload).toMatchObject({ approval: { id: created.id, status: 'expired', reason: 'ttl' } });

  const response = await as('POST', `/ai/approvals/${created.id}/decide`, { decision: 'approved' });
  expect(response.status).toBe(409);
  expect(response.body.error.message).toBe('This approval has expired');
  expect((await as('GET', '/ai/approvals?status=expired')).body.data.map((entry: { id: string }) => entry.id)).toContain(created.id);
  const audit = (await as('GET', '/ai/audit?limit=100')).body.data.filter(
    (entry: { approvalId?: string }) => entry.approvalId === created.id,
  );
  expect(audit[0]).toMatchObject({ action: 'expired', actor: { id: 'system' }, detail: { reason: 'ttl', expiresAt: created.expiresAt } });
});

it("tells the approval's conversation that it expired, so the next turn's model knows", async () => {
  const asked = await as('POST', '/ai/chat', { message: 'delete collection forgotten' });
  const { approvalId, conversationId } = asked.body.data;
  let status = 'pending';
  const deadline = Date.now() + TTL_SECONDS * 1000 + 15_000;
  while (status === 'pending' && Date.now() < deadline) {
    await new Promise((wait) => setTimeout(wait, 100));
    status = (await as('GET', `/ai/approvals/${approvalId}`)).body.data.status;
  }
  expect(status).toBe('expired');
  // The note follows the transition (and its audit entry): wait for it rather than race it.
  await eventually(async () => {
    const messages = (await as('GET', `/ai/conversations/${conversationId}/messages?limit=100`)).body.data as { content: string }[];
    expect(messages.map((message) => message.content)).toContainEqual(
      expect.stringMatching(new RegExp(`approval ${approvalId}.*expired \\(nobody decided in time\\)`)),
    );
  });
});

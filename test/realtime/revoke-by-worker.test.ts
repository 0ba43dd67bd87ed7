// A membership removed by an approved deleteUser, which the worker process runs (asked through the Copilot or over
// MCP): the removed member's socket on an API server is disconnected within 2 s and gets no site event written after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp } from '../../server/test-support/mcp-client.js';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { stopAll } from '../support/processes.js';
import { expectDisconnectedWithin, expectNoEventAfter, watchSite } from '../support/revoked-socket.js';
import { type RecordedEvent, SocketPool } from '../support/socket-client.js';

const cluster = new Cluster({ env: { DECIDE_WAIT_MS: '5000', CHAT_RATE_LIMIT_PER_MINUTE: '10000' } });
let serverA: string;
let serverB: string;
let superadmin: ApiClient;
const sockets = new SocketPool();

beforeAll(async () => {
  await cluster.startMongo();
  [serverA, serverB] = [await cluster.startServer(), await cluster.startServer()];
  await cluster.startWorker();
  superadmin = await ApiClient.signIn(serverA, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  sockets.closeAll();
  await cluster.stop();
  await stopAll();
});

/**
 * A site with a requester and an approver (admins), an editor to remove, a collection, and two sockets on server B:
 * the editor's and the approver's (which keeps watching after the editor is gone).
 */
async function siteWithEditor() {
  const siteId = await superadmin.createSite(`Removed by a worker ${Math.random().toString(36).slice(2, 8)}`);
  const [requester, approver, editor] = [
    await superadmin.createMember(siteId, 'admin'),
    await superadmin.createMember(siteId, 'admin'),
    await superadmin.createMember(siteId, 'editor'),
  ];
  await requester.createCollection(siteId, { name: 'news' });
  const revoked = await watchSite(sockets, serverB, editor.token, siteId);
  const observer = await watchSite(sockets, serverB, approver.token, siteId);
  return { siteId, requester, approver, editor, revoked, observer };
}

const ofApproval = (approvalId: string, status: string) => (event: RecordedEvent) =>
  event.name.startsWith('approval-') && event.payload.approval.id === approvalId && event.payload.approval.status === status;

/**
 * The approver approves on server A; the worker removes the editor. The editor's socket must be gone within 2 s of
 * the approval's outcome reaching the approver's socket, and have got neither that outcome (written after the
 * removal) nor an approval requested afterwards (its arguments are what the finding saw leak).
 */
async function approveAndExpectRevoked(site: Awaited<ReturnType<typeof siteWithEditor>>, approvalId: string): Promise<void> {
  const { siteId, requester, approver, editor, revoked, observer } = site;
  await observer.waitFor(ofApproval(approvalId, 'pending'));
  await approver.expect(200, 'POST', `/ai/approvals/${approvalId}/decide`, { siteId, body: { decision: 'approved' } });
  const approved = await observer.waitFor(ofApproval(approvalId, 'approved'));
  await expectDisconnectedWithin(revoked, Date.now(), 'member removed by the worker');
  expect(approved.payload.approval.result).toMatchObject({ userId: editor.userId, removedFromSite: true });

  const later = await requester.via(serverB).chat(siteId, 'delete collection news');
  expect(later.status).toBe('pending_approval');
  const created = await observer.waitFor(ofApproval(later.approvalId, 'pending'));
  expect(created.name).toBe('approval-created');
  expectNoEventAfter(revoked, approved.payload.seq, (event) => event.payload.approval?.id === later.approvalId);
  expect((await editor.via(serverB).request('GET', '/collections', { siteId })).status).toBe(403);
}

describe('a member removed by an approved deleteUser run in the worker process', () => {
  it('asked through the Copilot: their socket on server B is disconnected and gets nothing after', async () => {
    const site = await siteWithEditor();
    const reply = await site.requester.chat(site.siteId, `delete user ${site.editor.userId}`);
    expect(reply.status, JSON.stringify(reply)).toBe('pending_approval');
    await approveAndExpectRevoked(site, reply.approvalId);
  });

  it('asked over MCP: their socket on server B is disconnected and gets nothing after', async () => {
    const site = await siteWithEditor();
    const mcp = await connectMcp(serverA, site.requester.token, site.siteId);
    try {
      const called = await mcp.callTool({ name: 'deleteUser', arguments: { userId: site.editor.userId } });
      const content = called.structuredContent as { status?: string; approvalId?: string } | undefined;
      expect(content?.status, JSON.stringify(called)).toBe('pending_approval');
      await approveAndExpectRevoked(site, content!.approvalId!);
    } finally {
      await mcp.close();
    }
  });
});

// Identical requests at the same instant make one approval: the gate's lookup and insert are one atomic step
// (a unique index on the pending key). Concurrent chats through the whole composition, and the store's step alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSiteId, openTestDatabase, type TestDatabase } from '../../test-support/ai-test-database.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import type { NewApproval } from '../store/ai/approval.store.js';

describe('identical chats at the same instant', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('identical', { LLM_PROVIDER: 'echo' });
  }, 60_000);
  afterAll(() => server?.close());

  it('make one approval, which every answer names; the audit says the others were already pending', async () => {
    const siteId = await server.createSite('Identical site');
    const admins = await Promise.all([1, 2, 3, 4].map(() => server.createMember({ siteId, role: 'admin' })));
    expect(
      (await server.request('POST', '/collections', { token: admins[0]!.token, siteId, body: { name: 'twice', fields: [] } })).status,
    ).toBe(201);

    const answers = await Promise.all(
      [...admins, ...admins].map((admin) =>
        server.request('POST', '/ai/chat', { token: admin.token, siteId, body: { message: 'delete collection twice' } }),
      ),
    );
    expect(answers.map((answer) => [answer.status, answer.body.data.status])).toEqual(answers.map(() => [200, 'pending_approval']));
    const ids = new Set(answers.map((answer) => answer.body.data.approvalId as string));
    expect(ids.size).toBe(1);
    const pending = await server.request('GET', '/ai/approvals?status=pending', { token: admins[0]!.token, siteId });
    expect(pending.body.data.map((approval: { id: string }) => approval.id)).toEqual([...ids]);
    const audit = await server.request('GET', '/ai/audit?limit=50', { token: admins[0]!.token, siteId });
    const requested = audit.body.data.filter((entry: { action: string }) => entry.action === 'approval_requested');
    expect(requested).toHaveLength(8);
    expect(requested.filter((entry: { detail?: { alreadyPending?: boolean } }) => !entry.detail?.alreadyPending)).toHaveLength(1);
  });
});

describe('ApprovalStore.insertUnlessPending', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database?.close());

  const request = (skillName: string, args: Record<string, unknown>): NewApproval => {
    const at = new Date().toISOString();
    return {
      skillName,
      arguments: args,
      context: { message: 'm' },
      status: 'pending',
      requestedBy: { id: 'u-ada', name: 'Ada' },
      attempts: 0,
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
      createdAt: at,
      updatedAt: at,
    };
  };

  it('of 12 concurrent identical inserts creates one; key order does not make a request different; another site is apart', async () => {
    const siteId = freshSiteId();
    const { approvals } = database.stores.forSite(siteId);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        approvals.insertUnlessPending(
          request('deleteField', index % 2 === 0 ? { collection: 'posts', field: 'body' } : { field: 'body', collection: 'posts' }),
        ),
      ),
    );
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.approval.id)).size).toBe(1);
    expect(await approvals.count({ status: 'pending' })).toBe(1);
    const elsewhere = await database.stores
      .forSite(freshSiteId())
      .approvals.insertUnlessPending(request('deleteField', { collection: 'posts', field: 'body' }));
    expect(elsewhere.created).toBe(true);
    // Other arguments are another request.
    expect((await approvals.insertUnlessPending(request('deleteField', { collection: 'posts', field: 'title' }))).created).toBe(true);
  });

  it('once the pending one is decided, the same request makes a new approval', async () => {
    const siteId = freshSiteId();
    const { approvals } = database.stores.forSite(siteId);
    const first = await approvals.insertUnlessPending(request('deleteCollection', { name: 'posts' }));
    await approvals.transition(first.approval.id, { from: 'pending', to: 'rejected', at: new Date() });
    const again = await approvals.insertUnlessPending(request('deleteCollection', { name: 'posts' }));
    expect(again.created).toBe(true);
    expect(again.approval.id).not.toBe(first.approval.id);
  });
});

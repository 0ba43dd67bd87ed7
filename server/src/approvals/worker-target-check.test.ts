// The worker checks the target again right before running: a collection recreated between the decision and
// the job (a test-side fault delay holds the job) is not deleted; the approval expires instead.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { delayBeforeSkill } from '../../test-support/fault-delays.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

const DELAY_MS = 2000;
let server: TestServer;
let siteId: string;
let admin: { id: string; token: string };

beforeAll(async () => {
  server = await startTestServer('worker-target', { DECIDE_WAIT_MS: '0' }, { skillExecution: delayBeforeSkill(DELAY_MS) });
  siteId = await server.createSite('Worker check');
  admin = await server.createMember({ siteId, role: 'admin' });
});
afterAll(async () => server?.close());

const as = (method: string, path: string, body?: unknown) =>
  server.request(method, path, { token: admin.token, siteId, ...(body === undefined ? {} : { body }) });

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

it('does not run an approval whose collection was recreated after the decision: it expires, the new collection stays', async () => {
  expect((await as('POST', '/collections', { name: 'drafts', fields: [{ name: 'title', type: 'string' }] })).status).toBe(201);
  const asked = await as('POST', '/ai/chat', { message: 'delete collection drafts' });
  const approvalId = asked.body.data.approvalId as string;

  const decided = await as('POST', `/ai/approvals/${approvalId}/decide`, { decision: 'approved', revision: 1 });
  expect(decided.status).toBe(202);
  expect(decided.body.data.status).toBe('executing');
  // While the job waits: the collection is deleted and recreated with new content.
  expect((await as('DELETE', '/collections/drafts')).status).toBe(204);
  expect((await as('POST', '/collections', { name: 'drafts', fields: [{ name: 'title', type: 'string' }] })).status).toBe(201);
  const item = await as('POST', '/items/drafts', { data: { title: 'new, important content' } });

  const settled = await until(
    async () => (await as('GET', `/ai/approvals/${approvalId}`)).body.data,
    (approval) => approval.status !== 'executing',
  );
  expect(settled).toMatchObject({ status: 'expired', reason: 'target_changed', attempts: 1 });
  expect((await as('GET', `/items/drafts/${item.body.data.id}`)).status).toBe(200);
  const audit = (await as('GET', '/ai/audit?limit=100')).body.data.filter(
    (entry: { approvalId?: string }) => entry.approvalId === approvalId,
  );
  expect(audit.map((entry: { action: string }) => entry.action)).toEqual(['expired', 'approval_requested']);
});

it('runs the same approval when nothing changed during the delay', async () => {
  expect((await as('POST', '/collections', { name: 'stale', fields: [{ name: 'title', type: 'string' }] })).status).toBe(201);
  const asked = await as('POST', '/ai/chat', { message: 'delete collection stale' });
  const approvalId = asked.body.data.approvalId as string;
  expect((await as('POST', `/ai/approvals/${approvalId}/decide`, { decision: 'approved' })).status).toBe(202);
  const settled = await until(
    async () => (await as('GET', `/ai/approvals/${approvalId}`)).body.data,
    (approval) => approval.status !== 'executing',
  );
  expect(settled.status).toBe('approved');
  expect((await as('GET', '/collections/stale')).status).toBe(404);
});

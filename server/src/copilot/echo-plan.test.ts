// The offline Copilot (echo) makes plans too: one message asking for a collection with its fields is one approval of
// several steps, approved once, run in order, and the run continues with echo's plain sentence.
// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are JSON the tests read.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
let siteId: string;
let admin: { token: string };
let second: { token: string };

beforeAll(async () => {
  server = await startTestServer('echo_plan', { DECIDE_WAIT_MS: '0', LLM_PROVIDER: 'echo' });
  siteId = await server.createSite('Echo plans');
  admin = await server.createMember({ siteId, role: 'admin' });
  second = await server.createMember({ siteId, role: 'admin' });
});
afterAll(async () => server?.close());

const as = (who: { token: string }) => (method: string, path: string, body?: unknown) =>
  server.request(method, path, { token: who.token, siteId, ...(body === undefined ? {} : { body }) });

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

it('plans "create a collection events with fields title and date" as one approval of three steps, and says when it ran', async () => {
  const asked = await as(admin)('POST', '/ai/chat', { message: 'create a collection events with fields title and date as datetime' });
  expect(asked.status).toBe(200);
  const reply = asked.body.data;
  expect(reply.status).toBe('pending_approval');
  expect(reply.results.map((outcome: any) => [outcome.status, outcome.step])).toEqual([
    ['pending_approval', 1],
    ['pending_approval', 2],
    ['pending_approval', 3],
  ]);
  const approval = (await as(admin)('GET', `/ai/approvals/${reply.approvalId}`)).body.data;
  expect(approval.skillName).toBe('plan');
  expect(approval.steps.map((step: any) => step.impact.summary)).toEqual([
    'Creates the collection events with 0 fields',
    'Adds the string field title to events (created by step 1)',
    'Adds the datetime field date to events (created by step 1)',
  ]);
  expect((await as(second)('POST', `/ai/approvals/${reply.approvalId}/decide`, { decision: 'approved' })).status).toBe(202);
  const settled = await until(
    async () => (await as(admin)('GET', `/ai/approvals/${reply.approvalId}`)).body.data,
    (current) => current.status !== 'executing',
  );
  expect(settled.status).toBe('approved');
  const collection = (await as(admin)('GET', '/collections/events')).body.data;
  expect(collection.fields.map((field: any) => [field.name, field.type])).toEqual([
    ['title', 'string'],
    ['date', 'datetime'],
  ]);
  const messages = await until(
    async () => (await as(admin)('GET', `/ai/conversations/${reply.conversationId}/messages`)).body.data as any[],
    (list) => list.some((message) => message.content === 'Done: the 3 steps of the plan ran.'),
  );
  expect(messages.map((message) => message.content)).toContain('Done: the 3 steps of the plan ran.');
});

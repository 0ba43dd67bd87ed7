// Runs and plans (docs/API.md): a turn's dependent calls become one approval whose steps were dry-run against the site as
// the earlier steps leave it; approved, the steps run in order; a failing step undoes the done ones in reverse.
// A real server (API and worker in process) with the OpenAI planner talking to a local test server.
// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are JSON the tests read.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { delayBeforeSkill } from '../../test-support/fault-delays.js';
import { type FakeModelServer, startFakeModelServer } from '../../test-support/fake-model-server.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

/** The transcripts quoted in closing notes: printed only when asked (PRINT_TRANSCRIPTS=1), not into every CI log. */
function transcript(text: string): void {
  if (process.env.PRINT_TRANSCRIPTS === '1') console.log(text);
}

const DELAY_MS = 1500;
let model: FakeModelServer;
let server: TestServer;
let siteId: string;
let admin: { id: string; token: string };
let second: { id: string; token: string };

beforeAll(async () => {
  model = await startFakeModelServer('openai');
  server = await startTestServer(
    'plans',
    { DECIDE_WAIT_MS: '0', LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-plans-test', OPENAI_BASE_URL: model.url },
    { skillExecution: delayBeforeSkill(DELAY_MS) },
  );
  siteId = await server.createSite('Plans');
  admin = await server.createMember({ siteId, role: 'admin' });
  second = await server.createMember({ siteId, role: 'admin' });
});
afterAll(async () => {
  await server?.close();
  await model?.close();
});

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

/**
 * The run continues after each settlement (docs/API.md, "The run continues"): the worker calls the model again. The test
 * scripts that call's reply before deciding and waits for it in the conversation, so no continuation is left to take
 * the next test's scripted replies.
 */
async function continuesWith(conversationId: string, text: string): Promise<void> {
  const messages = await until(
    async () => (await as(admin)('GET', `/ai/conversations/${conversationId}/messages`)).body.data as any[],
    (list) => list.some((message) => message.role === 'assistant' && message.content === text),
  );
  expect(messages.map((message) => message.content)).toContain(text);
}

const EVENTS_CALLS = [
  { name: 'createCollection', arguments: { name: 'events' } },
  { name: 'createField', arguments: { collection: 'events', field: { name: 'title', type: 'string', required: true } } },
  { name: 'createField', arguments: { collection: 'events', field: { name: 'date', type: 'datetime' } } },
  { name: 'createItem', arguments: { collection: 'events', data: { title: 'Launch party', date: '2026-12-15T18:00:00Z' } } },
];

it('plans dependent calls (a collection, its fields, an item in it) as one approval of four steps, dry-run, then runs them in order', async () => {
  model.script([{ toolCalls: EVENTS_CALLS }, { text: 'I planned the events collection; an admin must approve it.' }]);
  const asked = await as(admin)('POST', '/ai/chat', {
    message: 'set up an events collection with a title and a date, and add the launch party',
  });
  expect(asked.status).toBe(200);
  const reply = asked.body.data;
  expect(reply.status).toBe('pending_approval');
  const approvalId = reply.approvalId as string;
  expect(reply.results.map((outcome: any) => [outcome.status, outcome.approvalId, outcome.step])).toEqual([
    ['pending_approval', approvalId, 1],
    ['pending_approval', approvalId, 2],
    ['pending_approval', approvalId, 3],
    ['pending_approval', approvalId, 4],
  ]);
  // The model heard each call was planned.
  const toolResults = (model.requests[1]!.body as any).messages.filter((message: any) => message.role === 'tool');
  expect(toolResults.map((message: any) => JSON.parse(message.content))).toEqual(
    [1, 2, 3, 4].map((step) => ({ tool: EVENTS_CALLS[step - 1]!.name, status: 'planned', approvalId, step })),
  );

  const pending = (await as(admin)('GET', '/ai/approvals')).body.data;
  expect(pending.map((approval: any) => approval.id)).toEqual([approvalId]);
  const approval = pending[0];
  expect(approval.skillName).toBe('plan');
  expect(approval.arguments).toEqual({});
  expect(approval.steps.map((step: any) => [step.skillName, step.status, step.impact?.summary])).toEqual([
    ['createCollection', 'planned', 'Creates the collection events with 0 fields'],
    ['createField', 'planned', 'Adds the string field title to events (created by step 1)'],
    ['createField', 'planned', 'Adds the datetime field date to events (created by step 1)'],
    ['createItem', 'planned', 'Creates an item "Launch party" in events (created by step 1)'],
  ]);
  // Bound by name: the collection has no id yet.
  expect(approval.steps[1].target).toEqual({ kind: 'field', collection: 'events' });
  expect(approval.impact.summary).toBe(approval.steps.map((step: any, index: number) => `${index + 1}. ${step.impact.summary}`).join('; '));
  transcript(
    `TRANSCRIPT events plan\n${JSON.stringify({ reply: { status: reply.status, approvalId, reply: reply.reply, results: reply.results }, approval }, null, 2)}`,
  );

  model.script([{ text: 'The events collection is set up, with the launch party in it.' }]);
  expect(
    (await as(second)('POST', `/ai/approvals/${approvalId}/decide`, { decision: 'approved', revision: approval.revision })).status,
  ).toBe(202);
  const settled = await until(
    async () => (await as(admin)('GET', `/ai/approvals/${approvalId}`)).body.data,
    (current) => current.status !== 'executing',
  );
  expect(settled.status).toBe('approved');
  expect(settled.steps.map((step: any) => step.status)).toEqual(['done', 'done', 'done', 'done']);
  // Two progress changes per step (running, done), each a revision of the approval.
  expect(settled.revision).toBeGreaterThanOrEqual(approval.revision + 1 + 8);
  const collection = (await as(admin)('GET', '/collections/events')).body.data;
  expect(collection.fields.map((field: any) => [field.name, field.type])).toEqual([
    ['title', 'string'],
    ['date', 'datetime'],
  ]);
  const items = (await as(admin)('GET', '/items/events')).body.data;
  expect(items.map((item: any) => item.data)).toEqual([{ title: 'Launch party', date: '2026-12-15T18:00:00Z' }]);
  await continuesWith(reply.conversationId, 'The events collection is set up, with the launch party in it.');
  const conversation = (await as(admin)('GET', `/ai/conversations/${reply.conversationId}/messages`)).body.data as any[];
  // The requester reads what became of the plan as a whole, not the label of one of its skills.
  expect(conversation.map((message) => message.content)).toContain(
    `Update on approval ${reply.approvalId}: the plan of 4 steps was approved and ran.`,
  );
  transcript(
    `TRANSCRIPT events run\n${JSON.stringify(
      {
        settled: {
          status: settled.status,
          revision: settled.revision,
          steps: settled.steps.map((step: any) => [step.skillName, step.status]),
        },
        conversation: conversation.map((message) => ({ role: message.role, content: message.content })),
        continuationRequest: (model.requests.at(-1)!.body as any).messages.filter((message: any) => message.role === 'tool'),
      },
      null,
      2,
    )}`,
  );
});

it('denies at planning a call that cannot succeed in the planned future, with the reason, and plans the rest', async () => {
  model.script([
    {
      toolCalls: [
        { name: 'createCollection', arguments: { name: 'talks' } },
        { name: 'createField', arguments: { collection: 'ghosts', field: { name: 'boo', type: 'string' } } },
        { name: 'createField', arguments: { collection: 'talks', field: { name: 'speaker', type: 'string' } } },
        { name: 'createField', arguments: { collection: 'talks', field: { name: 'speaker', type: 'text' } } },
        { name: 'createItem', arguments: { collection: 'talks', data: { speaker: 42 } } },
      ],
    },
    { text: 'Planned what could be.' },
  ]);
  const reply = (await as(admin)('POST', '/ai/chat', { message: 'talks please' })).body.data;
  expect(reply.results.map((outcome: any) => outcome.status)).toEqual([
    'pending_approval',
    'denied',
    'pending_approval',
    'denied',
    'denied',
  ]);
  expect(reply.results[1].message).toBe(
    '“Add a field” cannot be planned as step 2: the collection ghosts neither exists nor is created by an earlier step.',
  );
  expect(reply.results[3].message).toContain('the field speaker already exists in talks');
  expect(reply.results[4].message).toContain('the data does not fit talks');
  const approval = (await as(admin)('GET', `/ai/approvals/${reply.approvalId}`)).body.data;
  expect(approval.steps.map((step: any) => step.skillName)).toEqual(['createCollection', 'createField']);
  // Rejected: nothing of it exists.
  model.script([{ text: 'The talks plan was rejected; nothing was changed.' }]);
  expect((await as(admin)('POST', `/ai/approvals/${reply.approvalId}/decide`, { decision: 'rejected' })).status).toBe(200);
  expect((await as(admin)('GET', '/collections/talks')).status).toBe(404);
  await continuesWith(reply.conversationId, 'The talks plan was rejected; nothing was changed.');
});

it('rolls back: a step failing at execution undoes the done steps in reverse; back to pending, audited execution_failed then rolled_back', async () => {
  expect((await as(admin)('POST', '/collections', { name: 'notes', fields: [{ name: 'title', type: 'string' }] })).status).toBe(201);
  model.script([
    {
      toolCalls: [
        { name: 'createCollection', arguments: { name: 'venues' } },
        { name: 'createField', arguments: { collection: 'venues', field: { name: 'city', type: 'string' } } },
        { name: 'createItem', arguments: { collection: 'venues', data: { city: 'Lyon' } } },
        { name: 'createItem', arguments: { collection: 'notes', data: { title: 'venues set up' } } },
      ],
    },
    { text: 'Planned.' },
  ]);
  const reply = (await as(admin)('POST', '/ai/chat', { message: 'venues with a city, Lyon, and a note' })).body.data;
  const approvalId = reply.approvalId as string;
  const approval = (await as(admin)('GET', `/ai/approvals/${approvalId}`)).body.data;
  expect(approval.steps).toHaveLength(4);
  model.script([{ text: 'Step 4 failed, so the venues plan was undone.' }]);
  expect((await as(second)('POST', `/ai/approvals/${approvalId}/decide`, { decision: 'approved' })).status).toBe(202);
  // While the job waits: the note's field changes type, so step 4 cannot succeed.
  expect((await as(admin)('PATCH', '/collections/notes/fields/title', { type: 'integer' })).status).toBe(200);

  const settled = await until(
    async () => (await as(admin)('GET', `/ai/approvals/${approvalId}`)).body.data,
    (current) => current.status !== 'executing',
  );
  transcript(`TRANSCRIPT rollback\n${JSON.stringify(settled, null, 2)}`);
  expect(settled.status).toBe('pending');
  expect(settled.lastError).toMatch(/^step 4 \(“Create an item”\) failed: /);
  expect(settled.steps.map((step: any) => step.status)).toEqual(['undone', 'undone', 'undone', 'failed']);
  expect((await as(admin)('GET', '/collections/venues')).status).toBe(404);
  expect((await as(admin)('GET', '/items/notes')).body.data).toEqual([]);
  // What the plan created is removed for good: nothing of it waits in the trash.
  expect((await as(admin)('GET', '/trash')).body.data).toEqual([]);
  const audit = (await as(admin)('GET', '/ai/audit?limit=100')).body.data.filter((entry: any) => entry.approvalId === approvalId);
  // Newest first: the roll-back after the failure.
  expect(audit.map((entry: any) => entry.action).slice(0, 2)).toEqual(['rolled_back', 'execution_failed']);
  expect((await as(admin)('GET', '/ai/audit/verify')).body.data.valid).toBe(true);
  transcript(
    `TRANSCRIPT rollback audit\n${JSON.stringify(
      audit.reverse().map((entry: any) => ({ seq: entry.seq, action: entry.action, detail: entry.detail })),
      null,
      2,
    )}`,
  );
  await continuesWith(reply.conversationId, 'Step 4 failed, so the venues plan was undone.');
});

// A worker SIGKILLed in the middle of an approved plan (docs/API.md, "Runs and plans"): on redelivery the plan resumes —
// or, when a later step cannot succeed any more, undoes — and no step runs twice: each created thing exists once with
// one revision, the approval was attempted once, the audit chain verifies. The plan comes from a chat turn against the
// OpenAI test server; the worker holds each step's effect 1.5 s before it records the step done, and is killed as soon
// as the approval document shows step 1 done and step 2 running (its effect made, not yet recorded).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeModelServer, type RecordedRequest, startFakeModelServer } from '../../server/test-support/fake-model-server.js';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { sleep, until } from '../support/poll.js';
import { stopAll } from '../support/processes.js';

const HOLD_MS = 1500;
let model: FakeModelServer;
let cluster: Cluster;
let server: string;
let superadmin: ApiClient;

/** The model: each chat message names its plan's calls; after tool results (the continuation too) it answers in words. */
function plannerFor(calls: Record<string, { name: string; arguments: Record<string, unknown> }[]>) {
  return (request: RecordedRequest) => {
    const messages = (request.body?.messages ?? []) as { role: string; content?: unknown }[];
    if (messages.at(-1)?.role !== 'user') return { text: 'Noted.' };
    const asked = String(messages.at(-1)!.content);
    return { toolCalls: calls[asked] ?? [] };
  };
}

beforeAll(async () => {
  model = await startFakeModelServer('openai');
  cluster = new Cluster({
    env: {
      DECIDE_WAIT_MS: '0',
      JOB_LOCK_MS: '1000',
      RECONCILE_INTERVAL_MS: '1000',
      LLM_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-plan-kills',
      OPENAI_BASE_URL: model.url,
    },
  });
  await cluster.startMongo();
  server = await cluster.startServer();
  superadmin = await ApiClient.signIn(server, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  await cluster?.stop();
  await stopAll();
  await model?.close();
});

type Step = { status: string; skillName: string };
type Approval = { status: string; attempts: number; steps: Step[]; lastError?: string };

/** Approves the plan with a holding worker alive, kills it once step 1 is done and step 2 running, and returns the moment. */
async function approveAndKillMidPlan(admin: ApiClient, siteId: string, approvalId: string): Promise<Step[]> {
  const worker = await cluster.startWorker({ FAULT_DELAY_AFTER_SKILL_MS: String(HOLD_MS) });
  const decided = await admin.request('POST', `/ai/approvals/${approvalId}/decide`, { siteId, body: { decision: 'approved' } });
  expect([200, 202]).toContain(decided.status);
  const midway = await until(
    () => admin.expect<Approval>(200, 'GET', `/ai/approvals/${approvalId}`, { siteId }),
    (approval) => approval.steps[0]?.status === 'done' && approval.steps[1]?.status === 'running',
    { timeoutMs: 30_000, intervalMs: 50, what: 'step 1 done and step 2 running' },
  );
  // Step 2's effect is made within the hold; kill before the worker records it.
  await sleep(HOLD_MS / 3);
  await worker.stop('SIGKILL');
  return midway.steps;
}

async function settled(admin: ApiClient, siteId: string, approvalId: string): Promise<Approval> {
  return until(
    () => admin.expect<Approval>(200, 'GET', `/ai/approvals/${approvalId}`, { siteId }),
    (approval) => approval.status !== 'executing',
    { timeoutMs: 60_000, intervalMs: 200, what: `approval ${approvalId} settled` },
  );
}

describe('a worker SIGKILLed in the middle of a plan', () => {
  it('resumes on redelivery: every step runs once, each created item exists once with one revision', async () => {
    const siteId = await superadmin.createSite('Plan kills: resume');
    const admin = await superadmin.createMember(siteId, 'admin');
    const message = 'set up events with a title, and add the launch party and the after party';
    model.respondWith(
      plannerFor({
        [message]: [
          { name: 'createCollection', arguments: { name: 'events', fields: [{ name: 'title', type: 'string' }] } },
          { name: 'createItem', arguments: { collection: 'events', data: { title: 'Launch party' } } },
          { name: 'createItem', arguments: { collection: 'events', data: { title: 'After party' } } },
        ],
      }),
    );
    const reply = await admin.chat(siteId, message);
    expect(reply.status).toBe('pending_approval');
    const midway = await approveAndKillMidPlan(admin, siteId, reply.approvalId);
    expect(midway.map((step) => step.status)).toEqual(['done', 'running', 'planned']);

    const resumer = await cluster.startWorker();
    const approval = await settled(admin, siteId, reply.approvalId);
    await resumer.stop();
    expect(approval).toMatchObject({ status: 'approved', attempts: 1 });
    expect(approval.steps.map((step) => step.status)).toEqual(['done', 'done', 'done']);

    const collections = await admin.expect<{ name: string }[]>(200, 'GET', '/collections?limit=100', { siteId });
    expect(collections.map((collection) => collection.name)).toEqual(['events']);
    const items = await admin.expect<{ id: string; data: { title: string } }[]>(200, 'GET', '/items/events?limit=100', { siteId });
    expect(items.map((item) => item.data.title).sort()).toEqual(['After party', 'Launch party']);
    for (const item of items) {
      const revisions = await admin.expect<{ revision: number; action: string; approvalId?: string }[]>(
        200,
        'GET',
        `/items/events/${item.id}/revisions`,
        { siteId },
      );
      expect(revisions.map(({ revision, action, approvalId }) => ({ revision, action, approvalId }))).toEqual([
        { revision: 1, action: 'created', approvalId: reply.approvalId },
      ]);
    }
    const audit = await admin.expect<{ action: string; approvalId?: string }[]>(200, 'GET', '/ai/audit?limit=100', { siteId });
    expect(
      audit
        .filter((entry) => entry.approvalId === reply.approvalId)
        .map((entry) => entry.action)
        .sort(),
    ).toEqual(['approval_requested', 'approved']);
    expect(await admin.expect(200, 'GET', '/ai/audit/verify', { siteId })).toMatchObject({ valid: true });
  }, 180_000);

  it('undoes on redelivery when a later step can no longer succeed: nothing of the plan remains, nothing in the trash', async () => {
    const siteId = await superadmin.createSite('Plan kills: undo');
    const admin = await superadmin.createMember(siteId, 'admin');
    await admin.expect(201, 'POST', '/collections', { siteId, body: { name: 'notes', fields: [{ name: 'title', type: 'string' }] } });
    const message = 'set up venues with a city, add Lyon, and note it';
    model.respondWith(
      plannerFor({
        [message]: [
          { name: 'createCollection', arguments: { name: 'venues', fields: [{ name: 'city', type: 'string' }] } },
          { name: 'createItem', arguments: { collection: 'venues', data: { city: 'Lyon' } } },
          { name: 'createItem', arguments: { collection: 'notes', data: { title: 'venues set up' } } },
        ],
      }),
    );
    const reply = await admin.chat(siteId, message);
    expect(reply.status).toBe('pending_approval');
    await approveAndKillMidPlan(admin, siteId, reply.approvalId);
    // While no worker lives: step 3's data no longer fits notes.
    await admin.expect(200, 'PATCH', '/collections/notes/fields/title', { siteId, body: { type: 'integer' } });

    const undoer = await cluster.startWorker();
    const approval = await settled(admin, siteId, reply.approvalId);
    await undoer.stop();
    expect(approval.status).toBe('pending');
    expect(approval.attempts).toBe(1);
    expect(approval.steps.map((step) => step.status)).toEqual(['undone', 'undone', 'failed']);
    expect(approval.lastError).toMatch(/^step 3 \(“Create an item”\) failed: /);

    const collections = await admin.expect<{ name: string }[]>(200, 'GET', '/collections?limit=100', { siteId });
    expect(collections.map((collection) => collection.name)).toEqual(['notes']);
    expect(await admin.expect(200, 'GET', '/items/notes?limit=100', { siteId })).toEqual([]);
    expect(await admin.expect(200, 'GET', '/trash', { siteId })).toEqual([]);
    const audit = await until(
      () => admin.expect<{ action: string; approvalId?: string }[]>(200, 'GET', '/ai/audit?limit=100', { siteId }),
      (entries) => entries.some((entry) => entry.action === 'rolled_back'),
      { timeoutMs: 15_000, intervalMs: 250, what: 'the roll-back audited' },
    );
    expect(audit.filter((entry) => entry.approvalId === reply.approvalId).map((entry) => entry.action)).toEqual([
      'rolled_back',
      'execution_failed',
      'approval_requested',
    ]);
    expect(await admin.expect(200, 'GET', '/ai/audit/verify', { siteId })).toMatchObject({ valid: true });
  }, 180_000);
});

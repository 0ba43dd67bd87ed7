// A run's continuation makes model calls as its requester, so it counts against their per-user model-call limit
// (CHAT_RATE_LIMIT_PER_MINUTE, the Redis window that chat, /ai/skills and /ai/search share): anyone can cause
// settlements by withdrawing their own requests, and each settlement is up to LLM_MAX_STEPS + 1 model calls. Beyond
// the limit, the continuation asks the model nothing: it says so in the conversation once, and runs when the window
// allows; a turn refused part-way stops there and says so. Calls are counted on a fake OpenAI server.
import { CAPABILITIES, type CopilotProgressEvent } from '@lumibase/shared';
import { randomBytes } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalDecider } from '../approvals/decide-approval.js';
import { AISecureHarness, type HarnessActor } from '../gate/ai-secure-harness.js';
import { createPlanner, type PlannerConfig } from '../llm/create-planner.js';
import { NO_TARGETS } from '../skills/approval-targets.js';
import { freshSiteId, openTestDatabase, type TestDatabase } from '../../test-support/ai-test-database.js';
import { type FakeModelServer, startFakeModelServer } from '../../test-support/fake-model-server.js';
import { recordingExecutors } from '../../test-support/recording-executors.js';
import { ChatRateLimiter } from './chat-rate-limiter.js';
import { ChatService } from './chat.service.js';
import { ContinueRunService } from './continue-run.js';
import { mayCallModelWithin } from './may-call-model.js';

const LIMIT = 2;
const prefix = `continue-run-limit-${randomBytes(4).toString('hex')}:`;
let database: TestDatabase;
let model: FakeModelServer;
let redis: RedisClientType;
let now: number;
let chat: ChatService;
let continuation: ContinueRunService;
let pushed: { userId: string; event: CopilotProgressEvent }[];
const everyCapability = (id: string): HarnessActor => ({ id, name: id, capabilities: [...CAPABILITIES], isSuperadmin: false });
const actors = new Map<string, HarnessActor>();

beforeAll(async () => {
  database = await openTestDatabase();
  model = await startFakeModelServer('openai');
  redis = createClient({ url: process.env.LUMIBASE_TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
  await redis.connect();
});
afterAll(async () => {
  const keys = await redis?.keys(`${prefix}*`);
  if (keys?.length) await redis.del(keys);
  await redis?.quit();
  await model?.close();
  await database?.close();
});

beforeEach(() => {
  now = Date.parse('2026-12-08T10:00:00Z');
  pushed = [];
  // One window for chat and continuation, as composed: the same Redis keys under the deployment's prefix.
  const limiter = new ChatRateLimiter({ redis, prefix, limitPerMinute: LIMIT, clock: () => new Date(now) });
  const planner = createPlanner(
    { LLM_TIMEOUT_MS: 5000, LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-limit', OPENAI_BASE_URL: model.url } as PlannerConfig,
    { retry: { sleep: async () => {} } },
  );
  const harness = new AISecureHarness({ targets: NO_TARGETS, stores: database.stores, executors: recordingExecutors().executors });
  chat = new ChatService({ stores: database.stores, harness, planner, rateLimiter: limiter, maxSteps: 5 });
  continuation = new ContinueRunService({
    stores: database.stores,
    harness,
    planner,
    maxSteps: 5,
    mayCallModel: mayCallModelWithin(limiter),
    actorFor: async (_siteId, userId) => actors.get(userId),
    replies: { sendToMember: (_siteId, userId, event) => pushed.push({ userId, event }) },
  });
});

/**
 * A requester's turn that asks to delete posts and then says it waits (its two model calls fill the window), and its
 * withdrawal: the settlement a continuation takes up.
 */
async function proposeAndWithdraw() {
  const siteId = freshSiteId();
  const requester = everyCapability(`u-${randomBytes(3).toString('hex')}`);
  actors.set(requester.id, requester);
  model.script([{ toolCalls: [{ name: 'deleteCollection', arguments: { name: 'posts' } }] }, { text: 'That waits for an admin.' }]);
  const turn = await chat.chat({ siteId, actor: requester, message: 'delete the posts collection' });
  const { approvalId } = turn.results.find((outcome) => outcome.status === 'pending_approval') as { approvalId: string };
  const decider = new ApprovalDecider({
    targets: NO_TARGETS,
    stores: database.stores,
    executor: {
      execute: async () => {
        throw new Error('a withdrawal runs nothing');
      },
    },
  });
  await decider.decideApproval({ siteId, approvalId, decision: 'rejected', reason: 'never mind', decider: requester });
  const { conversations } = database.stores.forSite(siteId);
  const note = (await conversations.latestMessages(turn.conversationId, 1)).at(-1)!;
  expect(note.content).toMatch(/^Update on approval/);
  const messages = async () => (await conversations.latestMessages(turn.conversationId, 50)).map((message) => message.content);
  return { siteId, requester, approvalId, noteId: note.id, conversationId: turn.conversationId, messages };
}

describe('a continuation beyond the requester’s model-call limit', () => {
  it('asks the model nothing, tells the requester once that it will go on, and goes on once the window allows', async () => {
    const run = await proposeAndWithdraw();
    model.requests.length = 0;
    model.script([{ text: 'Understood: the posts stay.' }]);

    const refused = await continuation.continueRun(run);
    expect(refused).toMatchObject({ ran: false, why: 'model-call limit reached' });
    expect(refused.ran === false && 'retryAfterMs' in refused && refused.retryAfterMs).toBe(60_000);
    expect(model.requests, 'no model call beyond the limit').toHaveLength(0);
    const waiting =
      'You have used all the Copilot model calls you may make in a minute, so I will take up this outcome in about 60 seconds. There is nothing you need to do.';
    expect((await run.messages()).at(-1)).toBe(waiting);
    expect(pushed).toEqual([{ userId: run.requester.id, event: { conversationId: run.conversationId, kind: 'reply', text: waiting } }]);

    // The job's retry, still within the minute: still nothing asked, and the conversation is not told twice.
    now += 30_000;
    expect(await continuation.continueRun(run)).toMatchObject({ ran: false, why: 'model-call limit reached' });
    expect(model.requests).toHaveLength(0);
    expect((await run.messages()).filter((content) => content === waiting)).toHaveLength(1);
    expect(pushed).toHaveLength(1);

    // The window moved on: the run continues, the model hearing the outcome right after its planned call.
    now += 31_000;
    expect(await continuation.continueRun(run)).toMatchObject({ ran: true, reply: 'Understood: the posts stay.' });
    expect(model.requests).toHaveLength(1);
    const sent = model.requests[0]!.body.messages as { role: string; content: string }[];
    expect(sent.at(-1)?.role).toBe('tool');
    expect(sent.some((message) => message.content === waiting)).toBe(false);
    expect((await run.messages()).at(-1)).toBe('Understood: the posts stay.');
  });

  it('counts every further model call of its turn: refused part-way, it stops there and says so', async () => {
    const run = await proposeAndWithdraw();
    now += 61_000;
    model.requests.length = 0;
    const listing = { toolCalls: [{ name: 'listCollections', arguments: {} }] };
    model.script([listing, listing, listing, { text: 'never asked' }]);

    const done = await continuation.continueRun(run);
    expect(model.requests, 'two calls fit in the window; the third is not made').toHaveLength(LIMIT);
    const stopped =
      'You have used all the Copilot model calls you may make in a minute, so I stopped taking up this outcome here; nothing more was run. Ask me again in about 60 seconds to go on.';
    expect(done).toMatchObject({ ran: true, reply: stopped });
    expect((await run.messages()).at(-1)).toBe(stopped);
    expect(pushed.at(-1)).toEqual({
      userId: run.requester.id,
      event: { conversationId: run.conversationId, kind: 'reply', text: stopped },
    });
  });
});

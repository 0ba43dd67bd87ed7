// The run continues after its approval is settled, through each real planner against a local server speaking its
// provider's format: the model hears the outcome as the tool results of the calls it planned (paired with its own
// tool-call message, as each provider requires), and its reply is stored in the conversation and pushed to the requester.
// biome-ignore-all lint/suspicious/noExplicitAny: request bodies are whatever the SDK sent; the tests assert their shape.
import { CAPABILITIES, type CopilotProgressEvent } from '@lumibase/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalDecider } from '../approvals/decide-approval.js';
import { startExecution } from '../approvals/approval-operations.js';
import { runApproval } from '../approvals/run-approval.js';
import { AISecureHarness, type HarnessActor } from '../gate/ai-secure-harness.js';
import { createPlanner, type PlannerConfig } from '../llm/create-planner.js';
import { NO_TARGETS } from '../skills/approval-targets.js';
import { freshSiteId, openTestDatabase, type TestDatabase } from '../../test-support/ai-test-database.js';
import { type FakeModelServer, type ModelDialect, startFakeModelServer } from '../../test-support/fake-model-server.js';
import { type RecordingExecutors, recordingExecutors } from '../../test-support/recording-executors.js';
import { ChatService } from './chat.service.js';
import { ContinueRunService } from './continue-run.js';
import { CONTEXT_MESSAGES } from '../store/ai/conversation.store.js';
import { Types } from 'mongoose';

const KEY = 'sk-continue-77';

/** The tool results the request ends with, each with the name of the call it answers in the message before. */
type Answered = { name: string; result: any }[];

const PROVIDERS: { provider: string; dialect: ModelDialect; config(url: string): Partial<PlannerConfig>; answered(body: any): Answered }[] =
  [
    {
      provider: 'openai',
      dialect: 'openai',
      config: (url) => ({ LLM_PROVIDER: 'openai', OPENAI_API_KEY: KEY, OPENAI_BASE_URL: url }),
      answered: (body) => chatCompletionsAnswered(body.messages),
    },
    {
      provider: 'anthropic',
      dialect: 'anthropic',
      config: (url) => ({ LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url }),
      answered: (body) => {
        const [call, results] = body.messages.slice(-2);
        expect(call.role).toBe('assistant');
        expect(results.role).toBe('user');
        const uses = call.content.filter((block: any) => block.type === 'tool_use');
        return results.content
          .filter((block: any) => block.type === 'tool_result')
          .map((block: any) => {
            const use = uses.find((candidate: any) => candidate.id === block.tool_use_id);
            const text = typeof block.content === 'string' ? block.content : block.content.map((part: any) => part.text).join('');
            return { name: use?.name, result: JSON.parse(text) };
          });
      },
    },
    {
      provider: 'gemini',
      dialect: 'gemini',
      config: (url) => ({ LLM_PROVIDER: 'gemini', GEMINI_API_KEY: KEY, GEMINI_BASE_URL: url }),
      answered: (body) => {
        const [call, results] = body.contents.slice(-2);
        expect(call.role).toBe('model');
        const called = call.parts.filter((part: any) => part.functionCall).map((part: any) => part.functionCall.name);
        return results.parts
          .filter((part: any) => part.functionResponse)
          .map((part: any) => {
            expect(called).toContain(part.functionResponse.name);
            const response = part.functionResponse.response;
            const text = response.content ?? response.output ?? response.result ?? response;
            return { name: part.functionResponse.name, result: typeof text === 'string' ? JSON.parse(text) : text };
          });
      },
    },
    {
      provider: 'workers-ai',
      dialect: 'openai',
      config: (url) => ({ LLM_PROVIDER: 'workers-ai', CLOUDFLARE_ACCOUNT_ID: 'acct', CLOUDFLARE_API_TOKEN: KEY, WORKERS_AI_BASE_URL: url }),
      answered: (body) => chatCompletionsAnswered(body.messages),
    },
  ];

function chatCompletionsAnswered(messages: any[]): Answered {
  const firstResult = messages.findLastIndex((message) => message.role !== 'tool') + 1;
  const call = messages[firstResult - 1];
  expect(call.role).toBe('assistant');
  return messages.slice(firstResult).map((message) => {
    const toolCall = call.tool_calls.find((candidate: any) => candidate.id === message.tool_call_id);
    return { name: toolCall?.function.name, result: JSON.parse(message.content) };
  });
}

const ada: HarnessActor = { id: 'u-ada', name: 'Ada', capabilities: [...CAPABILITIES], isSuperadmin: false };
const bob: HarnessActor = { id: 'u-bob', name: 'Bob', capabilities: [...CAPABILITIES], isSuperadmin: false };
let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

describe.each(PROVIDERS)('a continued run with the $provider planner', ({ dialect, config, answered }) => {
  let server: FakeModelServer;
  let recorder: RecordingExecutors;
  let chat: ChatService;
  let continuation: ContinueRunService;
  let pushed: { siteId: string; userId: string; event: CopilotProgressEvent }[];

  beforeAll(async () => {
    server = await startFakeModelServer(dialect);
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    server.requests.length = 0;
    recorder = recordingExecutors();
    pushed = [];
    const planner = createPlanner({ LLM_TIMEOUT_MS: 5000, ...config(server.url) } as PlannerConfig, { retry: { sleep: async () => {} } });
    const harness = new AISecureHarness({ targets: NO_TARGETS, stores: database.stores, executors: recorder.executors });
    chat = new ChatService({ stores: database.stores, harness, planner, rateLimiter: { consume: async () => {} }, maxSteps: 5 });
    continuation = new ContinueRunService({
      stores: database.stores,
      harness,
      planner,
      maxSteps: 5,
      mayCallModel: async () => {},
      actorFor: async (_siteId, userId) => (userId === ada.id ? ada : undefined),
      replies: { sendToMember: (siteId, userId, event) => pushed.push({ siteId, userId, event }) },
    });
  });

  /** Ada's turn: the model asks to delete posts (pending approval) and says it waits. */
  async function propose(siteId: string) {
    server.script([{ toolCalls: [{ name: 'deleteCollection', arguments: { name: 'posts' } }] }, { text: 'That waits for an admin.' }]);
    const reply = await chat.chat({ siteId, actor: ada, message: 'delete the posts collection' });
    const { approvalId } = reply.results.find((outcome) => outcome.status === 'pending_approval') as { approvalId: string };
    return { conversationId: reply.conversationId, approvalId };
  }
  const lastMessage = async (siteId: string, conversationId: string) =>
    (await database.stores.forSite(siteId).conversations.latestMessages(conversationId, 1)).at(-1)!;

  it('after approval: the model hears { status: "approved", result } for its call; its reply is stored and pushed to the requester', async () => {
    const siteId = freshSiteId();
    const { conversationId, approvalId } = await propose(siteId);
    const { approvals } = database.stores.forSite(siteId);
    const executing = await startExecution(approvals, (await approvals.get(approvalId))!, {
      actor: { id: bob.id, name: bob.name },
      at: new Date(),
    });
    recorder.behaviour = { result: { deleted: 'posts', items: 3 } };
    await runApproval({ approval: executing!, approvals, executors: recorder.executors });
    const note = await lastMessage(siteId, conversationId);

    server.requests.length = 0;
    server.script([{ text: 'The posts collection and its 3 items are gone.' }]);
    const done = await continuation.continueRun({ siteId, approvalId, noteId: note.id });

    expect(done).toMatchObject({ ran: true, reply: 'The posts collection and its 3 items are gone.' });
    expect(server.requests).toHaveLength(1);
    expect(answered(server.requests[0]!.body)).toEqual([
      {
        name: 'deleteCollection',
        result: expect.objectContaining({ status: 'approved', approvalId, result: { deleted: 'posts', items: 3 } }),
      },
    ]);
    expect(await lastMessage(siteId, conversationId)).toMatchObject({
      role: 'assistant',
      content: 'The posts collection and its 3 items are gone.',
    });
    expect(pushed).toEqual([
      { siteId, userId: ada.id, event: { conversationId, kind: 'reply', text: 'The posts collection and its 3 items are gone.' } },
    ]);
    // The same settlement continued again (a redelivered job): nothing more is asked, stored or pushed.
    expect(await continuation.continueRun({ siteId, approvalId, noteId: note.id })).toMatchObject({ ran: false });
    expect(server.requests).toHaveLength(1);
    expect(pushed).toHaveLength(1);
  });

  it('in a conversation longer than the context page: a redelivered continuation runs once, and a note not in it runs nothing', async () => {
    const siteId = freshSiteId();
    const { conversationId, approvalId } = await propose(siteId);
    const { approvals, conversations } = database.stores.forSite(siteId);
    const executing = await startExecution(approvals, (await approvals.get(approvalId))!, {
      actor: { id: bob.id, name: bob.name },
      at: new Date(),
    });
    await runApproval({ approval: executing!, approvals, executors: recorder.executors });
    const note = await lastMessage(siteId, conversationId);
    // More messages after the note than a turn reads back: the history alone no longer shows the note is there.
    for (let index = 0; index < CONTEXT_MESSAGES; index++) {
      await conversations.appendMessage(conversationId, { role: 'user', content: `later ${index}`, createdAt: new Date().toISOString() });
    }

    server.requests.length = 0;
    expect(await continuation.continueRun({ siteId, approvalId, noteId: new Types.ObjectId().toHexString() })).toEqual({
      ran: false,
      why: 'note not appended',
    });
    expect(server.requests).toHaveLength(0);
    server.script([{ text: 'Done.' }]);
    expect(await continuation.continueRun({ siteId, approvalId, noteId: note.id })).toMatchObject({ ran: true, reply: 'Done.' });
    expect(await continuation.continueRun({ siteId, approvalId, noteId: note.id })).toEqual({ ran: false, why: 'already continued' });
    expect(server.requests).toHaveLength(1);
    expect(pushed).toHaveLength(1);
  });

  it('after rejection: the model hears { status: "rejected", reason } and its reply reaches the requester', async () => {
    const siteId = freshSiteId();
    const { conversationId, approvalId } = await propose(siteId);
    const decider = new ApprovalDecider({
      targets: NO_TARGETS,
      stores: database.stores,
      executor: {
        execute: async () => {
          throw new Error('a rejection runs nothing');
        },
      },
    });
    await decider.decideApproval({ siteId, approvalId, decision: 'rejected', reason: 'keep the posts', decider: bob });
    const note = await lastMessage(siteId, conversationId);

    server.requests.length = 0;
    server.script([{ text: 'Bob rejected it: the posts stay.' }]);
    const done = await continuation.continueRun({ siteId, approvalId, noteId: note.id });

    expect(done).toMatchObject({ ran: true, reply: 'Bob rejected it: the posts stay.' });
    expect(answered(server.requests[0]!.body)).toEqual([
      { name: 'deleteCollection', result: expect.objectContaining({ status: 'rejected', reason: 'keep the posts' }) },
    ]);
    expect(recorder.calls).toEqual([]);
    expect(pushed.map(({ userId, event }) => [userId, event.kind, event.text])).toEqual([
      [ada.id, 'reply', 'Bob rejected it: the posts stay.'],
    ]);
  });
});

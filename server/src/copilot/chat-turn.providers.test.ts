// Whole Copilot turns through each real planner, against a local server speaking its provider's format:
// the real harness and stores decide what runs; the executors below the harness only record.
// biome-ignore-all lint/suspicious/noExplicitAny: request bodies are whatever the SDK sent; the tests assert their shape.
import { Writable } from 'node:stream';
import { CAPABILITIES, UnavailableError } from '@lumibase/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AISecureHarness, type HarnessActor } from '../gate/ai-secure-harness.js';
import { createPlanner, type PlannerConfig } from '../llm/create-planner.js';
import type { Planner } from '../llm/planner.js';
import { createLogger } from '../logger.js';
import { freshSiteId, openTestDatabase, type TestDatabase } from '../../test-support/ai-test-database.js';
import { type FakeModelServer, type ModelDialect, startFakeModelServer } from '../../test-support/fake-model-server.js';
import { type RecordingExecutors, recordingExecutors } from '../../test-support/recording-executors.js';
import { ChatService } from './chat.service.js';
import { NO_TARGETS } from '../skills/approval-targets.js';

const KEY = 'sk-turn-SECRET-77aa';

const PROVIDERS: {
  provider: string;
  dialect: ModelDialect;
  config(url: string): Partial<PlannerConfig>;
  messagesOf(body: any): unknown[];
  toolCount(body: any): number;
}[] = [
  {
    provider: 'openai',
    dialect: 'openai',
    config: (url) => ({ LLM_PROVIDER: 'openai', OPENAI_API_KEY: KEY, OPENAI_BASE_URL: url }),
    messagesOf: (body) => body.messages.filter((message: any) => message.role === 'user' || message.role === 'assistant'),
    toolCount: (body) => body.tools.length,
  },
  {
    provider: 'anthropic',
    dialect: 'anthropic',
    config: (url) => ({ LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url }),
    messagesOf: (body) => body.messages,
    toolCount: (body) => body.tools.length,
  },
  {
    provider: 'gemini',
    dialect: 'gemini',
    config: (url) => ({ LLM_PROVIDER: 'gemini', GEMINI_API_KEY: KEY, GEMINI_BASE_URL: url }),
    messagesOf: (body) => body.contents,
    toolCount: (body) => body.tools[0].functionDeclarations.length,
  },
  {
    provider: 'workers-ai',
    dialect: 'openai',
    config: (url) => ({ LLM_PROVIDER: 'workers-ai', CLOUDFLARE_ACCOUNT_ID: 'acct', CLOUDFLARE_API_TOKEN: KEY, WORKERS_AI_BASE_URL: url }),
    messagesOf: (body) => body.messages.filter((message: any) => message.role === 'user' || message.role === 'assistant'),
    toolCount: (body) => body.tools.length,
  },
];

const ada: HarnessActor = { id: 'u-ada', name: 'Ada', capabilities: [...CAPABILITIES], isSuperadmin: false };
let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

describe.each(PROVIDERS)('a chat turn with the $provider planner', ({ provider, dialect, config, messagesOf, toolCount }) => {
  let server: FakeModelServer;
  let recorder: RecordingExecutors;
  let logLines: string[];
  let chat: ChatService;
  let planner: Planner;

  beforeAll(async () => {
    server = await startFakeModelServer(dialect);
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    server.requests.length = 0;
    recorder = recordingExecutors();
    logLines = [];
    const logger = createLogger({
      level: 'trace',
      output: new Writable({ write: (chunk, _encoding, done) => done(void logLines.push(String(chunk))) }),
    });
    planner = createPlanner({ LLM_TIMEOUT_MS: 5000, ...config(server.url) } as PlannerConfig, { retry: { logger, sleep: async () => {} } });
    chat = new ChatService({
      stores: database.stores,
      harness: new AISecureHarness({ targets: NO_TARGETS, stores: database.stores, executors: recorder.executors }),
      planner,
      rateLimiter: { consume: async () => {} },
      maxSteps: 5,
      siteSchema: async () => [{ name: 'posts', fields: [{ name: 'body', type: 'text' }] }],
      reportError: (error) => logger.error({ err: error, provider }, 'planner failed'),
    });
  });

  it('lists collections, reads the result, then adds a field (a schema change: pending approval) over three model steps', async () => {
    recorder.behaviour = { result: [{ name: 'posts', fields: [{ name: 'body', type: 'text' }] }] };
    server.script([
      { text: 'Let me look first.', toolCalls: [{ name: 'listCollections', arguments: {} }], usage: { input: 500, output: 20 } },
      {
        toolCalls: [{ name: 'createField', arguments: { collection: 'posts', field: { name: 'title', type: 'string' } } }],
        usage: { input: 600, output: 30 },
      },
      { text: 'Added title to posts.', usage: { input: 700, output: 10 } },
    ]);
    const reply = await chat.chat({ siteId: freshSiteId(), actor: ada, message: 'add a title field to posts' });

    expect(reply.results.map((outcome) => [outcome.status, outcome.skill?.name])).toEqual([
      ['executed', 'listCollections'],
      ['pending_approval', 'createField'],
    ]);
    expect(reply).toMatchObject({ reply: 'Added title to posts.', usage: { inputTokens: 1800, outputTokens: 60 } });
    expect(reply.results[1]!.skill!.arguments).toEqual({ collection: 'posts', field: { name: 'title', type: 'string', required: false } });
    expect(recorder.calls.map((call) => call.name)).toEqual(['listCollections']);
    // The second step saw the first call's result; the system prompt named the site's collections.
    expect(JSON.stringify(server.requests[1]!.body)).toContain('\\"tool\\":\\"listCollections\\"');
    expect(JSON.stringify(server.requests[0]!.body)).toContain('posts: body:text');
  });

  it('sends the 13+ tools and the 20 latest messages of the conversation', async () => {
    const siteId = freshSiteId();
    server.script([{ text: 'first' }]);
    const first = await chat.chat({ siteId, actor: ada, message: 'turn 0' });
    for (let turn = 1; turn <= 11; turn++) {
      server.script([{ text: `answer ${turn}` }]);
      await chat.chat({ siteId, actor: ada, message: `turn ${turn}`, conversationId: first.conversationId });
    }
    server.requests.length = 0;
    server.script([{ text: 'last' }]);
    await chat.chat({ siteId, actor: ada, message: 'turn 12', conversationId: first.conversationId });
    const body = server.requests[0]!.body;
    expect(toolCount(body)).toBeGreaterThanOrEqual(13);
    const sent = JSON.stringify(messagesOf(body));
    // 24 stored messages before this one: the latest 20 are turns 2..11 and their answers.
    expect(sent).not.toContain('"turn 1"');
    expect(sent).toContain('turn 2');
    expect(sent).toContain('answer 11');
    expect(sent).toContain('turn 12');
  });

  it('gates a dangerous call: pending approval with the model’s arguments, the model told so, nothing run', async () => {
    const siteId = freshSiteId();
    server.script([
      { toolCalls: [{ name: 'deleteCollection', arguments: { name: 'posts' } }] },
      { text: 'That needs an admin’s approval.' },
    ]);
    const reply = await chat.chat({ siteId, actor: ada, message: 'delete the posts collection' });
    expect(reply).toMatchObject({
      status: 'pending_approval',
      skill: { name: 'deleteCollection', arguments: { name: 'posts' } },
      reply: 'That needs an admin’s approval.',
    });
    const approval = await database.stores.forSite(siteId).approvals.get((reply as { approvalId: string }).approvalId);
    expect(approval).toMatchObject({ status: 'pending', skillName: 'deleteCollection', arguments: { name: 'posts' } });
    expect(recorder.calls).toEqual([]);
    // The model hears the call was planned (docs/API.md, "Runs and plans"): { status: "planned", approvalId, step }.
    expect(JSON.stringify(server.requests[1]!.body)).toContain(
      `\\"status\\":\\"planned\\",\\"approvalId\\":\\"${approval!.id}\\",\\"step\\":1`,
    );
  });

  it('retries a 429 and answers', async () => {
    server.script([{ status: 429, headers: { 'retry-after': '0' } }, { text: 'here I am' }]);
    const reply = await chat.chat({ siteId: freshSiteId(), actor: ada, message: 'hello' });
    expect(reply).toMatchObject({ status: 'executed', reply: 'here I am' });
    expect(server.requests).toHaveLength(2);
  });

  it('answers denied, saying the model failed, after repeated 500s; the key is in no log line', async () => {
    server.script([{ status: 500 }, { status: 500 }, { status: 500 }]);
    const reply = await chat.chat({ siteId: freshSiteId(), actor: ada, message: 'hello' });
    expect(reply).toMatchObject({ status: 'denied', reason: 'model_failed', message: expect.stringMatching(/language model failed/) });
    expect(server.requests).toHaveLength(3);
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) expect(line).not.toContain(KEY);
    expect(JSON.stringify(reply)).not.toContain(KEY);
  });

  it('denies a call whose arguments are malformed, and runs nothing', async () => {
    const raw = dialect === 'openai' ? '{"name": ' : 'posts';
    server.script([{ toolCalls: [{ name: 'deleteCollection', raw }] }, { text: 'Sorry.' }]);
    const reply = await chat.chat({ siteId: freshSiteId(), actor: ada, message: 'delete posts' });
    expect(reply).toMatchObject({ status: 'denied', reason: 'invalid_arguments', details: [{ path: 'arguments' }] });
    expect(recorder.calls).toEqual([]);
  });

  it('answers 503 (UnavailableError) when the provider cannot be reached for the whole turn', async () => {
    const closed = await startFakeModelServer(dialect);
    await closed.close();
    const unreachable = new ChatService({
      stores: database.stores,
      harness: new AISecureHarness({ targets: NO_TARGETS, stores: database.stores, executors: recorder.executors }),
      planner: createPlanner({ LLM_TIMEOUT_MS: 5000, ...config(closed.url) } as PlannerConfig, { retry: { sleep: async () => {} } }),
      rateLimiter: { consume: async () => {} },
    });
    await expect(unreachable.chat({ siteId: freshSiteId(), actor: ada, message: 'hello' })).rejects.toBeInstanceOf(UnavailableError);
  });
});

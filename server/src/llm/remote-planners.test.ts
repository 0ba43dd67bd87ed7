// Each remote planner, built by createPlanner from its settings, against a local server speaking its provider's format.
// biome-ignore-all lint/suspicious/noExplicitAny: request bodies are whatever the SDK sent; the tests assert their shape.
import { Writable } from 'node:stream';
import { getSkillToolSpecs, SKILL_NAMES } from '@lumibase/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import {
  type FakeModelServer,
  type ModelDialect,
  type RecordedRequest,
  startFakeModelServer,
} from '../../test-support/fake-model-server.js';
import { createPlanner, type PlannerConfig } from './create-planner.js';
import { ModelCallError } from './model-call-error.js';
import type { Planner, PlannerMessage } from './planner.js';

const KEY = 'sk-test-SECRET-4f1c9a';

interface ProviderCase {
  dialect: ModelDialect;
  config(url: string): Partial<PlannerConfig>;
  path: RegExp;
  keyHeader(request: RecordedRequest): unknown;
  toolNames(body: any): string[];
}

const CASES: Record<'openai' | 'anthropic' | 'gemini' | 'workers-ai', ProviderCase> = {
  openai: {
    dialect: 'openai',
    config: (url) => ({ LLM_PROVIDER: 'openai', OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${url}/v1` }),
    path: /^\/v1\/chat\/completions$/,
    keyHeader: (request) => request.headers.authorization,
    toolNames: (body) => body.tools.map((tool: any) => tool.function.name),
  },
  anthropic: {
    dialect: 'anthropic',
    config: (url) => ({ LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url }),
    path: /^\/v1\/messages$/,
    // Newer SDKs send the key as a bearer token, older ones as x-api-key; the service takes both.
    keyHeader: (request) => request.headers['x-api-key'] ?? request.headers.authorization,
    toolNames: (body) => body.tools.map((tool: any) => tool.name),
  },
  gemini: {
    dialect: 'gemini',
    config: (url) => ({ LLM_PROVIDER: 'gemini', GEMINI_API_KEY: KEY, GEMINI_BASE_URL: url }),
    path: /^\/v1beta\/models\/gemini-2\.5-flash:generateContent$/,
    keyHeader: (request) => request.headers['x-goog-api-key'],
    toolNames: (body) => body.tools[0].functionDeclarations.map((tool: any) => tool.name),
  },
  'workers-ai': {
    dialect: 'openai',
    config: (url) => ({
      LLM_PROVIDER: 'workers-ai',
      CLOUDFLARE_ACCOUNT_ID: 'acct-1',
      CLOUDFLARE_API_TOKEN: KEY,
      WORKERS_AI_BASE_URL: `${url}/client/v4`,
    }),
    path: /^\/client\/v4\/accounts\/acct-1\/ai\/v1\/chat\/completions$/,
    keyHeader: (request) => request.headers.authorization,
    toolNames: (body) => body.tools.map((tool: any) => tool.function.name),
  },
};

const TOOLS = getSkillToolSpecs();

/** A conversation as the chat service hands it over: system, history with an earlier call and its result, the new message. */
const MESSAGES: PlannerMessage[] = [
  { role: 'system', content: 'You are the LumiBase Copilot.' },
  { role: 'user', content: 'list collections' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c-1', name: 'listCollections', arguments: {} }] },
  { role: 'tool', content: '{"tool":"listCollections","status":"executed","data":[]}', toolCallId: 'c-1', toolName: 'listCollections' },
  { role: 'assistant', content: 'There are no collections.' },
  { role: 'user', content: 'add a title field to posts' },
];

describe.each(Object.entries(CASES))('the %s planner', (provider, providerCase) => {
  let server: FakeModelServer;
  let delays: number[];
  let logLines: string[];
  let planner: Planner;

  const build = (overrides: Partial<PlannerConfig> = {}) => {
    const logger = createLogger({
      level: 'trace',
      output: new Writable({ write: (chunk, _encoding, done) => done(void logLines.push(String(chunk))) }),
    });
    const config = { LLM_TIMEOUT_MS: 5000, ...providerCase.config(server.url), ...overrides } as PlannerConfig;
    return { logger, planner: createPlanner(config, { retry: { logger, sleep: async (ms) => void delays.push(ms) } }) };
  };

  beforeAll(async () => {
    server = await startFakeModelServer(providerCase.dialect);
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    server.requests.length = 0;
    delays = [];
    logLines = [];
    planner = build().planner;
  });

  it('is the planner createPlanner builds from the settings', () => {
    expect(planner.provider).toBe(provider);
  });

  it('sends every skill as a tool and the whole conversation, and returns the tool calls as { id, name, arguments }', async () => {
    server.script([
      {
        text: 'Adding it.',
        toolCalls: [{ name: 'createField', arguments: { collection: 'posts', field: { name: 'title', type: 'string' } } }],
        usage: { input: 321, output: 12 },
      },
    ]);
    const output = await planner.plan({ messages: MESSAGES, tools: TOOLS });

    expect(output).toEqual({
      text: 'Adding it.',
      toolCalls: [
        { id: expect.any(String), name: 'createField', arguments: { collection: 'posts', field: { name: 'title', type: 'string' } } },
      ],
      usage: { inputTokens: 321, outputTokens: 12 },
    });
    const [request] = server.requests;
    expect(request!.path).toMatch(providerCase.path);
    expect(String(providerCase.keyHeader(request!))).toContain(KEY);
    expect(providerCase.toolNames(request!.body)).toEqual([...SKILL_NAMES]);
    expect(SKILL_NAMES.length).toBeGreaterThanOrEqual(13);
    const sent = JSON.stringify(request!.body);
    for (const message of MESSAGES) expect(sent).toContain(JSON.stringify(message.content).slice(1, -1));
  });

  it('pairs an earlier step’s tool call with its result in the provider’s own format', async () => {
    server.script([{ text: 'ok' }]);
    await planner.plan({ messages: MESSAGES, tools: TOOLS });
    const body = server.requests[0]!.body;
    if (providerCase.dialect === 'openai') {
      expect(body.messages.map((message: any) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
      expect(body.messages[2].tool_calls[0]).toMatchObject({
        id: 'c-1',
        type: 'function',
        function: { name: 'listCollections', arguments: '{}' },
      });
      expect(body.messages[3]).toMatchObject({ role: 'tool', tool_call_id: 'c-1' });
    } else if (providerCase.dialect === 'anthropic') {
      // The system text, the tools and the conversation so far are cached prefixes across the turn's steps.
      expect(body.system).toEqual([{ type: 'text', text: 'You are the LumiBase Copilot.', cache_control: { type: 'ephemeral' } }]);
      expect(body.tools.at(-1).cache_control).toEqual({ type: 'ephemeral' });
      expect(body.messages.at(-1).content.at(-1).cache_control).toEqual({ type: 'ephemeral' });
      expect(body.messages.map((message: any) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
      expect(body.messages[1].content).toEqual([{ type: 'tool_use', id: 'c-1', name: 'listCollections', input: {} }]);
      expect(body.messages[2].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'c-1' });
    } else {
      expect(body.systemInstruction.parts[0].text).toBe('You are the LumiBase Copilot.');
      expect(body.contents.map((content: any) => content.role)).toEqual(['user', 'model', 'user', 'model', 'user']);
      expect(body.contents[1].parts[0].functionCall).toMatchObject({ name: 'listCollections', args: {} });
      expect(body.contents[2].parts[0].functionResponse).toMatchObject({ name: 'listCollections' });
    }
  });

  it('converts the catalog to tools once, not on every call', async () => {
    server.script([{ text: 'a' }, { text: 'b' }]);
    await planner.plan({ messages: MESSAGES, tools: TOOLS });
    await planner.plan({ messages: MESSAGES, tools: TOOLS });
    const [first, second] = server.requests.map((request) => request.body);
    const toolsOf = (body: any) => body.tools;
    expect(toolsOf(first)).toEqual(toolsOf(second));
  });

  it('retries a 429 after the time its Retry-After names, then answers', async () => {
    server.script([{ status: 429, headers: { 'retry-after': '7' } }, { text: 'fine now' }]);
    const output = await planner.plan({ messages: MESSAGES, tools: TOOLS });
    expect(output.text).toBe('fine now');
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([7000]);
  });

  it('gives up after three tries in all on repeated 500s (the SDK adds none of its own), with a ModelCallError', async () => {
    server.script([{ status: 500 }, { status: 500 }, { status: 500 }, { text: 'too late' }]);
    const failure = await planner.plan({ messages: MESSAGES, tools: TOOLS }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelCallError);
    expect(failure).toMatchObject({ kind: 'server_error', status: 500, provider });
    expect(server.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it('does not retry a 400', async () => {
    server.script([{ status: 400 }, { text: 'never asked' }]);
    await expect(planner.plan({ messages: MESSAGES, tools: TOOLS })).rejects.toMatchObject({ kind: 'rejected', status: 400 });
    expect(server.requests).toHaveLength(1);
  });

  it('hands back a tool call with malformed arguments as data with the reason, without throwing', async () => {
    const raw = providerCase.dialect === 'openai' ? '{"name": "posts"' : 'delete everything';
    server.script([{ toolCalls: [{ name: 'deleteCollection', raw }] }]);
    const output = await planner.plan({ messages: MESSAGES, tools: TOOLS });
    expect(output.toolCalls).toEqual([
      { id: expect.any(String), name: 'deleteCollection', arguments: expect.anything(), argumentsError: expect.stringMatching(/JSON/) },
    ]);
  });

  it('never writes the key to a log line, though the service quoted it back in its errors', async () => {
    const { logger, planner: logged } = build();
    server.script([{ status: 503 }, { status: 500 }, { status: 500 }]);
    const failure = await logged.plan({ messages: MESSAGES, tools: TOOLS }).catch((error: unknown) => error);
    logger.error({ err: failure, provider }, 'planner failed');
    expect(logLines.length).toBe(3);
    expect(logLines.join('')).toContain('scripted failure');
    for (const line of logLines) expect(line).not.toContain(KEY);
    expect(String((failure as Error).message)).not.toContain(KEY);
  });

  it('streams when asked: the text comes in pieces to onText, and the result is the same as unstreamed', async () => {
    const reply = {
      text: 'Listing your collections first.',
      toolCalls: [{ name: 'createField', arguments: { collection: 'posts', field: { name: 'title', type: 'string' } } }],
      usage: { input: 55, output: 7 },
    };
    server.script([reply, reply]);
    const pieces: string[] = [];
    const streamed = await planner.plan({ messages: MESSAGES, tools: TOOLS, onText: (piece) => pieces.push(piece) });
    const whole = await planner.plan({ messages: MESSAGES, tools: TOOLS });

    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(reply.text);
    expect({ ...streamed, toolCalls: streamed.toolCalls.map(({ id: _id, ...call }) => call) }).toEqual({
      ...whole,
      toolCalls: whole.toolCalls.map(({ id: _id, ...call }) => call),
    });
    expect(streamed.usage).toEqual({ inputTokens: 55, outputTokens: 7 });
    expect(server.requests[0]!.path).toMatch(providerCase.dialect === 'gemini' ? /:streamGenerateContent\?alt=sse$/ : providerCase.path);
  });

  it('denies a streamed tool call whose arguments are malformed, without throwing', async () => {
    const raw = providerCase.dialect === 'gemini' ? 'delete everything' : '{"name": "posts"';
    server.script([{ toolCalls: [{ name: 'deleteCollection', raw }] }]);
    const output = await planner.plan({ messages: MESSAGES, tools: TOOLS, onText: () => {} });
    expect(output.toolCalls).toEqual([
      { id: expect.any(String), name: 'deleteCollection', arguments: expect.anything(), argumentsError: expect.any(String) },
    ]);
  });

  it('retries a 429 when opening a stream too', async () => {
    server.script([{ status: 429, headers: { 'retry-after': '1' } }, { text: 'streamed after all' }]);
    const output = await planner.plan({ messages: MESSAGES, tools: TOOLS, onText: () => {} });
    expect([output.text, delays]).toEqual(['streamed after all', [1000]]);
  });

  it('fails with kind timeout when the service answers later than LLM_TIMEOUT_MS', async () => {
    const { planner: impatient } = build({ LLM_TIMEOUT_MS: 150 });
    server.script([{ text: 'late', delayMs: 1000 }]);
    await expect(impatient.plan({ messages: MESSAGES, tools: TOOLS })).rejects.toMatchObject({ kind: 'timeout' });
    expect(server.requests).toHaveLength(1);
  });

  it('fails with kind unreachable after three tries when nothing listens', async () => {
    const closed = await startFakeModelServer(providerCase.dialect);
    await closed.close();
    const config = { LLM_TIMEOUT_MS: 5000, ...providerCase.config(closed.url) } as PlannerConfig;
    const unreachable = createPlanner(config, { retry: { sleep: async (ms) => void delays.push(ms) } });
    await expect(unreachable.plan({ messages: MESSAGES, tools: TOOLS })).rejects.toMatchObject({ kind: 'unreachable' });
    expect(delays).toHaveLength(2);
  });
});

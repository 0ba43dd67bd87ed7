// What a remote model is given and how a turn ends (docs/API.md, "AI Copilot", "What a model is given"):
// tools filtered by capabilities and policy, results cut into valid JSON, the wrap-up after the step
// limit, cancellation, and Anthropic's error results. Real planners against a local model server.
// biome-ignore-all lint/suspicious/noExplicitAny: request bodies are whatever the SDK sent; the tests assert their shape.
import { CAPABILITIES, ROLE_PRESETS } from '@lumibase/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AISecureHarness, type HarnessActor } from '../gate/ai-secure-harness.js';
import { createPlanner, type PlannerConfig } from '../llm/create-planner.js';
import { freshSiteId, openTestDatabase, type TestDatabase } from '../../test-support/ai-test-database.js';
import { type FakeModelServer, startFakeModelServer } from '../../test-support/fake-model-server.js';
import { type RecordingExecutors, recordingExecutors } from '../../test-support/recording-executors.js';
import { ChatService } from './chat.service.js';
import { fitToolContent } from './fit-tool-content.js';
import { TOOL_CONTENT_MAX, toolContent } from './planner-messages.js';
import { NO_TARGETS } from '../skills/approval-targets.js';

const KEY = 'sk-model-turn-1';
const admin: HarnessActor = { id: 'u-ada', name: 'Ada', capabilities: [...CAPABILITIES], isSuperadmin: false };
const editor: HarnessActor = { id: 'u-eve', name: 'Eve', capabilities: [...ROLE_PRESETS.editor], isSuperadmin: false };

let database: TestDatabase;
let openai: FakeModelServer;
let anthropic: FakeModelServer;
let recorder: RecordingExecutors;

beforeAll(async () => {
  database = await openTestDatabase();
  [openai, anthropic] = await Promise.all([startFakeModelServer('openai'), startFakeModelServer('anthropic')]);
});
afterAll(async () => {
  await Promise.all([openai?.close(), anthropic?.close()]);
  await database?.close();
});
beforeEach(() => {
  openai.requests.length = 0;
  anthropic.requests.length = 0;
  openai.respondWith(undefined);
  recorder = recordingExecutors();
});

function chatWith(server: FakeModelServer, provider: 'openai' | 'anthropic', maxSteps = 5): ChatService {
  const config =
    provider === 'openai'
      ? { LLM_PROVIDER: 'openai', OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.url }
      : { LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url };
  return new ChatService({
    stores: database.stores,
    harness: new AISecureHarness({ targets: NO_TARGETS, stores: database.stores, executors: recorder.executors }),
    planner: createPlanner({ LLM_TIMEOUT_MS: 5000, ...config } as PlannerConfig, { retry: { sleep: async () => {} } }),
    rateLimiter: { consume: async () => {} },
    maxSteps,
    siteSchema: async () => [{ name: 'posts', fields: [{ name: 'title', type: 'string' }] }],
  });
}

const toolNames = (body: any): string[] => (body.tools ?? []).map((tool: any) => tool.function?.name ?? tool.name);

describe('the tools a model is given', () => {
  it('are only those the caller may use: an editor gets no schema or member changes', async () => {
    openai.script([{ text: 'Hello.' }]);
    await chatWith(openai, 'openai').chat({ siteId: freshSiteId(), actor: editor, message: 'hi' });
    const names = toolNames(openai.requests[0]!.body);
    expect(names).toContain('createItem');
    expect(names).toContain('listItems');
    for (const gated of ['createCollection', 'deleteCollection', 'createField', 'deleteField', 'updateField', 'deleteUser'])
      expect(names).not.toContain(gated);
  });

  it('leave out what the site’s policy turns off, and the brief names it', async () => {
    const siteId = freshSiteId();
    await database.stores.forSite(siteId).policy.update({ skills: { deleteItem: 'off', searchItems: 'off' } }, new Date());
    openai.script([{ text: 'Hello.' }]);
    await chatWith(openai, 'openai').chat({ siteId, actor: admin, message: 'hi' });
    const body = openai.requests[0]!.body;
    expect(toolNames(body)).not.toContain('deleteItem');
    expect(toolNames(body)).not.toContain('searchItems');
    expect(toolNames(body)).toContain('deleteCollection');
    const brief = body.messages
      .filter((message: any) => message.role === 'system')
      .map((message: any) => message.content)
      .join('\n');
    expect(brief).toMatch(/turns these skills off.*deleteItem, searchItems/);
    expect(brief).toMatch(/Today is \d{4}-\d{2}-\d{2}\./);
  });
});

describe('a tool result too long for the model', () => {
  const items = Array.from({ length: 200 }, (_, index) => ({
    id: `item-${index}`,
    data: { title: `Post ${index}`, body: 'x'.repeat(80) },
  }));
  const outcome = {
    status: 'executed' as const,
    skill: { name: 'listItems', arguments: { collection: 'posts' } },
    data: { collection: 'posts', items, total: 200, limit: 200, offset: 0 },
  };

  it('is cut by whole entries into valid JSON that keeps the paging fields and says how many were left out', () => {
    const text = toolContent(outcome);
    expect(text.length).toBeLessThanOrEqual(TOOL_CONTENT_MAX);
    const parsed = JSON.parse(text);
    expect(parsed.data).toMatchObject({ collection: 'posts', total: 200, limit: 200, offset: 0 });
    const kept = parsed.data.items.length;
    expect(kept).toBeGreaterThan(10);
    expect(kept).toBeLessThan(200);
    expect(parsed.data.items).toEqual(items.slice(0, kept));
    expect(parsed.data.omitted).toBe(200 - kept);
    // One more entry would not have fitted.
    expect(JSON.stringify({ ...parsed, data: { ...parsed.data, items: items.slice(0, kept + 1) } }).length).toBeGreaterThan(
      TOOL_CONTENT_MAX,
    );
  });

  it('with nothing to cut by entries, says it was too long, still as JSON', () => {
    const parsed = JSON.parse(fitToolContent({ tool: 'listItems', status: 'executed', data: { text: 'y'.repeat(9000) } }, 4000));
    expect(parsed).toMatchObject({ tool: 'listItems', status: 'executed', truncated: true });
    expect(parsed.data).toBeUndefined();
  });

  it('leaves a short result exactly as it was', () => {
    const record = { tool: 'listCollections', status: 'executed', data: { collections: [] } };
    expect(fitToolContent(record, 4000)).toBe(JSON.stringify(record));
  });
});

describe('the end of a turn', () => {
  it('after the step limit, makes one last call without tools and answers with its text', async () => {
    recorder.behaviour = { result: { collection: 'posts', items: [], total: 0, limit: 25, offset: 0 } };
    openai.respondWith((request) =>
      request.body.tool_choice === 'none'
        ? { text: 'I looked three times and found no posts.' }
        : { toolCalls: [{ name: 'listItems', arguments: { collection: 'posts' } }] },
    );
    const reply = await chatWith(openai, 'openai', 3).chat({ siteId: freshSiteId(), actor: admin, message: 'find my posts' });
    expect(openai.requests).toHaveLength(4);
    expect(openai.requests.slice(0, 3).every((request) => request.body.tool_choice === undefined)).toBe(true);
    expect(openai.requests[3]!.body.tool_choice).toBe('none');
    expect(reply.results).toHaveLength(3);
    expect(reply.reply).toBe('I looked three times and found no posts.');
    expect(reply.reply).not.toMatch(/Stopped after/);
  });

  it('is cancelled when the caller goes away: the model request in flight is aborted and no later step starts', async () => {
    const siteId = freshSiteId();
    recorder.behaviour = { result: { collection: 'posts', items: [], total: 0, limit: 25, offset: 0 } };
    openai.script([
      { toolCalls: [{ name: 'listItems', arguments: { collection: 'posts' } }] },
      { text: 'too late', delayMs: 3000 },
      { text: 'never asked' },
    ]);
    const controller = new AbortController();
    const chat = chatWith(openai, 'openai');
    const turn = chat.chat({ siteId, actor: admin, message: 'list posts', signal: controller.signal });
    while (openai.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    const abortedAt = Date.now();
    controller.abort();
    const reply = await turn;
    expect(Date.now() - abortedAt).toBeLessThan(1500);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(openai.requests).toHaveLength(2);
    expect(openai.requests[1]!.aborted).toBe(true);
    // What already ran stays, and is in the conversation.
    expect(recorder.calls.map((call) => call.name)).toEqual(['listItems']);
    const stored = await database.stores.forSite(siteId).conversations.listMessages(reply.conversationId);
    expect(stored.at(-1)!.results!.map((outcome) => outcome.status)).toEqual(['executed', 'executed']);
    expect(stored.at(-1)!.content).toMatch(/Cancelled/);
  });

  it('gives Anthropic a denied call’s result as is_error, and an executed one without it', async () => {
    recorder.behaviour = { result: { collections: [] } };
    anthropic.script([
      {
        toolCalls: [
          { name: 'listCollections', arguments: {} },
          { name: 'dropEverything', arguments: {} },
        ],
      },
      { text: 'Done looking.' },
    ]);
    await chatWith(anthropic, 'anthropic').chat({ siteId: freshSiteId(), actor: admin, message: 'look' });
    const results = anthropic.requests[1]!.body.messages.at(-1).content.filter((block: any) => block.type === 'tool_result');
    expect(results).toHaveLength(2);
    expect(results[0].is_error).toBeUndefined();
    expect(results[1].is_error).toBe(true);
  });
});

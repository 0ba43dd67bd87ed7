// The RAG skills' one model call through each remote planner, against a local server speaking its provider's format.
// biome-ignore-all lint/suspicious/noExplicitAny: request bodies are whatever the SDK sent; the tests assert their shape.
import { UnavailableError } from '@lumibase/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPlanner, type PlannerConfig } from '../../llm/create-planner.js';
import { EchoPlanner } from '../../llm/echo-planner.js';
import { type FakeModelServer, type ModelDialect, startFakeModelServer } from '../../../test-support/fake-model-server.js';
import { WordEmbedder } from '../../../test-support/word-embedder.js';
import { assistContent } from './content-assist.js';
import type { JsonModel } from './json-model.js';
import { jsonModelOf } from './planner-json-model.js';
import { ModelAnswerRejectedError } from './rag-errors.js';
import { suggestField } from './suggest-field.js';

const KEY = 'sk-test-SECRET-b81c03';

const BASE = { LLM_TIMEOUT_MS: 10_000, LLM_MODEL: undefined } as const;

const CASES: Record<
  'openai' | 'anthropic' | 'gemini' | 'workers-ai',
  { dialect: ModelDialect; config(url: string): Partial<PlannerConfig> }
> = {
  openai: { dialect: 'openai', config: (url) => ({ LLM_PROVIDER: 'openai', OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${url}/v1` }) },
  anthropic: { dialect: 'anthropic', config: (url) => ({ LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url }) },
  gemini: { dialect: 'gemini', config: (url) => ({ LLM_PROVIDER: 'gemini', GEMINI_API_KEY: KEY, GEMINI_BASE_URL: url }) },
  'workers-ai': {
    dialect: 'openai',
    config: (url) => ({
      LLM_PROVIDER: 'workers-ai',
      CLOUDFLARE_ACCOUNT_ID: 'acct-1',
      CLOUDFLARE_API_TOKEN: KEY,
      WORKERS_AI_BASE_URL: `${url}/client/v4`,
    }),
  },
};

/** The names of the tools a request offered, in each provider's format. */
function toolNames(dialect: ModelDialect, body: any): string[] {
  if (dialect === 'gemini') return body.tools[0].functionDeclarations.map((tool: any) => tool.name);
  if (dialect === 'anthropic') return body.tools.map((tool: any) => tool.name);
  return body.tools.map((tool: any) => tool.function.name);
}

const POSTS = { name: 'posts', fields: [{ name: 'title', type: 'string' as const, required: true }] };

describe.each(Object.entries(CASES))('a JsonModel on the %s planner', (_provider, providerCase) => {
  let server: FakeModelServer;
  let model: JsonModel;

  beforeAll(async () => {
    server = await startFakeModelServer(providerCase.dialect);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    const planner = createPlanner({ ...BASE, ...providerCase.config(server.url) } as PlannerConfig, { retry: { maxTries: 1 } });
    model = jsonModelOf(planner) as JsonModel;
  });

  it('suggests a field from one call offering only the answer tool', async () => {
    server.script([
      { toolCalls: [{ name: 'suggest_field', arguments: { name: 'summary', type: 'text', rationale: 'Listings need one.' } }] },
    ]);
    const result = await suggestField(
      { collection: POSTS, description: 'a short excerpt', siteFields: [] },
      { embedder: new WordEmbedder(), model },
    );
    expect(result.suggestion).toEqual({ name: 'summary', type: 'text', required: false });
    expect(result.rationale).toBe('Listings need one.');
    expect(server.requests).toHaveLength(1);
    const body = server.requests[0]?.body;
    expect(toolNames(providerCase.dialect, body)).toEqual(['suggest_field']);
    expect(JSON.stringify(body)).toContain('<<<DATA similar_fields');
  });

  it('assists content from one call', async () => {
    server.script([{ toolCalls: [{ name: 'propose_value', arguments: { value: 4, rationale: 'Similar recipes rate 4.' } }] }]);
    const result = await assistContent(
      { collection: 'recipes', field: { name: 'rating', type: 'integer', required: false }, instruction: 'rate it', similar: [] },
      { model },
    );
    expect(result).toMatchObject({ value: 4, rationale: 'Similar recipes rate 4.' });
  });

  it('refuses an answer that is not a JSON object', async () => {
    server.script([{ toolCalls: [{ name: 'suggest_field', raw: providerCase.dialect === 'openai' ? '{"name": "sum' : 'not an object' }] }]);
    const failure = await suggestField(
      { collection: POSTS, description: 'a short excerpt', siteFields: [] },
      { embedder: new WordEmbedder(), model },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelAnswerRejectedError);
  });

  it('reads a JSON answer written as text, and refuses prose', async () => {
    server.script([{ text: '```json\n{"value": "draft", "rationale": "r"}\n```' }, { text: 'I think it should be draft.' }]);
    const field = { name: 'status', type: 'enum' as const, required: false, options: { values: ['draft', 'published'] } };
    const request = { collection: 'posts', field, instruction: 'set a status', similar: [] };
    expect((await assistContent(request, { model })).value).toBe('draft');
    const failure = await assistContent(request, { model }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelAnswerRejectedError);
    expect((failure as Error).message).toMatch(/did not call propose_value/);
  });

  it('turns a failed call into UnavailableError without the key', async () => {
    server.script([{ status: 401 }]);
    const failure = await suggestField(
      { collection: POSTS, description: 'a short excerpt', siteFields: [] },
      { embedder: new WordEmbedder(), model },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnavailableError);
    expect((failure as Error).message).toMatch(/^The language model could not answer: .*401/);
    expect((failure as Error).message).not.toContain(KEY);
  });
});

describe('jsonModelOf', () => {
  it('gives no model for echo, which answers from retrieval alone', () => {
    expect(jsonModelOf(new EchoPlanner())).toBeUndefined();
  });
});

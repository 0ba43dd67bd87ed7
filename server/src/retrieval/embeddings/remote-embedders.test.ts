// Each remote embedder, built by createRemoteEmbedder from its settings, against a local server speaking its provider's format.
// biome-ignore-all lint/suspicious/noExplicitAny: request bodies are whatever the client sent; the tests assert their shape.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type EmbeddingDialect,
  type FakeEmbeddingServer,
  type RecordedEmbeddingRequest,
  rawTestVector,
  startFakeEmbeddingServer,
} from '../../../test-support/fake-embedding-server.js';
import { type Embedder, EmbeddingProviderError, normalize } from './embedder.js';
import { GeminiEmbedder } from './gemini-embedder.js';
import { OpenAIEmbedder } from './openai-embedder.js';
import { createRemoteEmbedder, missingEmbedderCredentials, type RemoteEmbedderConfig } from './remote-embedders.js';
import { WorkersAiEmbedder } from './workers-ai-embedder.js';

const KEY = 'sk-test-SECRET-7d2e41';

interface ProviderCase {
  dims: number;
  model: string;
  config(url: string): RemoteEmbedderConfig;
  /** The same embedder built directly, sending at most two texts per request. */
  batchedByTwo(url: string): Embedder;
  path: RegExp;
  credential(request: RecordedEmbeddingRequest): unknown;
  /** Whatever names the model in the request, and the texts it carries. */
  model_of(request: RecordedEmbeddingRequest): unknown;
  texts(body: any): string[];
}

const BASE: RemoteEmbedderConfig = { LLM_TIMEOUT_MS: 10_000 };

const CASES: Record<EmbeddingDialect, ProviderCase> = {
  openai: {
    dims: 1536,
    model: 'text-embedding-3-small',
    config: (url) => ({ ...BASE, OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${url}/v1` }),
    batchedByTwo: (url) => new OpenAIEmbedder({ apiKey: KEY, baseURL: `${url}/v1`, batchSize: 2 }),
    path: /^\/v1\/embeddings$/,
    credential: (request) => request.headers.authorization,
    model_of: (request) => request.body.model,
    texts: (body) => body.input,
  },
  gemini: {
    dims: 768,
    model: 'gemini-embedding-001',
    config: (url) => ({ ...BASE, GEMINI_API_KEY: KEY, GEMINI_BASE_URL: url }),
    batchedByTwo: (url) => new GeminiEmbedder({ apiKey: KEY, baseURL: url, batchSize: 2 }),
    path: /^\/v1beta\/models\/gemini-embedding-001:batchEmbedContents$/,
    credential: (request) => request.headers['x-goog-api-key'],
    model_of: (request) => request.body.requests.map((entry: any) => entry.model),
    texts: (body) => body.requests.map((entry: any) => entry.content.parts[0].text),
  },
  'workers-ai': {
    dims: 768,
    model: '@cf/baai/bge-base-en-v1.5',
    config: (url) => ({ ...BASE, CLOUDFLARE_ACCOUNT_ID: 'acct-1', CLOUDFLARE_API_TOKEN: KEY, WORKERS_AI_BASE_URL: `${url}/client/v4` }),
    batchedByTwo: (url) => new WorkersAiEmbedder({ accountId: 'acct-1', apiToken: KEY, baseURL: `${url}/client/v4`, batchSize: 2 }),
    path: /^\/client\/v4\/accounts\/acct-1\/ai\/run\/@cf\/baai\/bge-base-en-v1\.5$/,
    credential: (request) => request.headers.authorization,
    model_of: (request) => request.path.split('/ai/run/')[1],
    texts: (body) => body.text,
  },
};

const TEXTS = ['Lemon tart with a buttery crust', 'Trail running in the Alps', 'Quarterly sales report'];

function expectUnitVectorOf(vector: Float32Array | undefined, text: string, dims: number) {
  expect(vector).toBeInstanceOf(Float32Array);
  expect(vector?.length).toBe(dims);
  const expected = normalize(Float32Array.from(rawTestVector(text, dims)));
  const norm = Math.hypot(...(vector ?? []));
  expect(norm).toBeCloseTo(1, 5);
  for (let index = 0; index < dims; index += 97) expect(vector?.[index]).toBeCloseTo(expected[index] as number, 6);
}

async function failureOf(promise: Promise<unknown>): Promise<EmbeddingProviderError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(EmbeddingProviderError);
  return error as EmbeddingProviderError;
}

describe.each(Object.entries(CASES) as [EmbeddingDialect, ProviderCase][])('the %s embedder', (provider, providerCase) => {
  let server: FakeEmbeddingServer;
  let embedder: Embedder;

  beforeAll(async () => {
    server = await startFakeEmbeddingServer(provider, { dims: providerCase.dims });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    server.script([]);
    embedder = createRemoteEmbedder(provider, providerCase.config(server.url));
  });

  it('names its model and vector length', () => {
    expect(embedder.model).toBe(providerCase.model);
    expect(embedder.dims).toBe(providerCase.dims);
  });

  it('sends the texts in one documented request and returns unit vectors in order', async () => {
    const vectors = await embedder.embed(TEXTS);
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests as [RecordedEmbeddingRequest];
    expect(request.method).toBe('POST');
    expect(request.path).toMatch(providerCase.path);
    expect(providerCase.credential(request)).toMatch(new RegExp(`^(Bearer )?${KEY}$`));
    expect(providerCase.texts(request.body)).toEqual(TEXTS);
    const model = providerCase.model_of(request);
    if (provider === 'gemini') expect(model).toEqual(TEXTS.map(() => `models/${providerCase.model}`));
    else expect(model).toBe(providerCase.model);
    expect(vectors).toHaveLength(TEXTS.length);
    for (const [index, text] of TEXTS.entries()) expectUnitVectorOf(vectors[index], text, providerCase.dims);
  });

  it('splits many texts into batches and keeps their order', async () => {
    const texts = ['one', 'two', 'three', 'four', 'five'];
    const vectors = await providerCase.batchedByTwo(server.url).embed(texts);
    expect(server.requests.map((request) => providerCase.texts(request.body))).toEqual([['one', 'two'], ['three', 'four'], ['five']]);
    for (const [index, text] of texts.entries()) expectUnitVectorOf(vectors[index], text, providerCase.dims);
  });

  it('sends nothing for no texts, and gives blank texts a zero vector without sending them', async () => {
    expect(await embedder.embed([])).toEqual([]);
    expect(server.requests).toHaveLength(0);
    const vectors = await embedder.embed(['', 'Lemon tart', '   ']);
    expect(server.requests.map((request) => providerCase.texts(request.body))).toEqual([['Lemon tart']]);
    expect([...(vectors[0] ?? [])].every((value) => value === 0)).toBe(true);
    expect([...(vectors[2] ?? [])].every((value) => value === 0)).toBe(true);
    expectUnitVectorOf(vectors[1], 'Lemon tart', providerCase.dims);
  });

  it.each([
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [401, false],
    [404, false],
  ])('maps an HTTP %i to retryable=%s, without the key in its message', async (status, retryable) => {
    server.script([{ status }]);
    const error = await failureOf(embedder.embed(TEXTS));
    expect(error.retryable).toBe(retryable);
    expect(error.status).toBe(status);
    expect(error.message).toContain(String(status));
    expect(error.message).not.toContain(KEY);
    expect(server.requests).toHaveLength(1);
  });

  it('maps a dropped connection to a retryable error', async () => {
    server.script([{ drop: true }]);
    const error = await failureOf(embedder.embed(TEXTS));
    expect(error.retryable).toBe(true);
    expect(error.message).not.toContain(KEY);
  });

  it('maps a refused connection to a retryable error', async () => {
    const closed = await startFakeEmbeddingServer(provider, { dims: providerCase.dims });
    const unreachable = createRemoteEmbedder(provider, providerCase.config(closed.url));
    await closed.close();
    const error = await failureOf(unreachable.embed(TEXTS));
    expect(error.retryable).toBe(true);
  });

  it('refuses vectors of the wrong length as a non-retryable error', async () => {
    server.script([{ vectors: true, dims: providerCase.dims - 1 }]);
    const error = await failureOf(embedder.embed(TEXTS));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/not \d+ finite numbers/);
  });
});

describe('createRemoteEmbedder', () => {
  it('names the settings a provider is missing, and will not build it without them', () => {
    expect(missingEmbedderCredentials('openai', BASE)).toEqual(['OPENAI_API_KEY']);
    expect(missingEmbedderCredentials('workers-ai', { ...BASE, CLOUDFLARE_API_TOKEN: KEY })).toEqual(['CLOUDFLARE_ACCOUNT_ID']);
    expect(missingEmbedderCredentials('gemini', { ...BASE, GEMINI_API_KEY: KEY })).toEqual([]);
    expect(() => createRemoteEmbedder('gemini', BASE)).toThrow(/GEMINI_API_KEY/);
  });

  it('takes EMBEDDINGS_MODEL, and asks for shorter vectors when given dimensions', async () => {
    const server = await startFakeEmbeddingServer('openai', { dims: 256 });
    try {
      const embedder = createRemoteEmbedder(
        'openai',
        { ...CASES.openai.config(server.url), EMBEDDINGS_MODEL: 'text-embedding-3-large' },
        { dimensions: 256 },
      );
      expect([embedder.model, embedder.dims]).toEqual(['text-embedding-3-large', 256]);
      await embedder.embed(['hello']);
      expect(server.requests[0]?.body).toMatchObject({ model: 'text-embedding-3-large', dimensions: 256, encoding_format: 'float' });
    } finally {
      await server.close();
    }
  });

  it('asks Gemini for 768-length vectors by default', async () => {
    const server = await startFakeEmbeddingServer('gemini', { dims: 768 });
    try {
      await createRemoteEmbedder('gemini', CASES.gemini.config(server.url)).embed(['hello']);
      expect(server.requests[0]?.body.requests[0]).toMatchObject({ outputDimensionality: 768 });
    } finally {
      await server.close();
    }
  });

  it('refuses an unknown model without dimensions', () => {
    expect(() =>
      createRemoteEmbedder('workers-ai', { ...CASES['workers-ai'].config('http://127.0.0.1:9'), EMBEDDINGS_MODEL: '@cf/x/y' }),
    ).toThrow(/give dimensions/);
  });
});

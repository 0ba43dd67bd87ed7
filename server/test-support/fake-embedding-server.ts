// Test fixture of the external embedding services: a node:http server on 127.0.0.1 speaking OpenAI's
// /embeddings, Gemini's :batchEmbedContents or Workers AI's /ai/run/<model>, answering every text with a
// vector derived from it (not unit length, so callers must normalise) and recording every request it got.
// biome-ignore-all lint/suspicious/noExplicitAny: request bodies are whatever the client under test sent; tests assert their shape.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type EmbeddingDialect = 'openai' | 'gemini' | 'workers-ai';

/** The next answer: vectors (the default), an HTTP failure with the provider's error body, or a dropped connection. */
export type ScriptedEmbeddingReply = { vectors: true; dims?: number } | { status: number; message?: string } | { drop: true };

export interface RecordedEmbeddingRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface FakeEmbeddingServer {
  url: string;
  requests: RecordedEmbeddingRequest[];
  /** Replaces the replies still to come; once they are used up, every request gets vectors. */
  script(replies: ScriptedEmbeddingReply[]): void;
  close(): Promise<void>;
}

/** The vector the server answers `text` with: deterministic, never zero, not unit length. */
export function rawTestVector(text: string, dims: number): number[] {
  let seed = 2166136261;
  for (const char of text) seed = Math.imul(seed ^ (char.codePointAt(0) ?? 0), 16777619) >>> 0;
  return Array.from({ length: dims }, (_, index) => (((seed >>> (index % 24)) + index * 7) % 17) - 8 + (index === 0 ? 20 : 0));
}

export async function startFakeEmbeddingServer(dialect: EmbeddingDialect, { dims }: { dims: number }): Promise<FakeEmbeddingServer> {
  const requests: RecordedEmbeddingRequest[] = [];
  let replies: ScriptedEmbeddingReply[] = [];
  const server = createServer((request, response) => {
    void readJson(request).then((body) => {
      requests.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body });
      const reply = replies.shift() ?? { vectors: true };
      if ('drop' in reply) return void response.destroy();
      if ('status' in reply) return send(response, reply.status, errorBody(dialect, reply.status, reply.message, credentialOf(request)));
      send(response, 200, answerBody(dialect, textsOf(dialect, body), reply.dims ?? dims));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(next) {
      replies = [...next];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function credentialOf(request: IncomingMessage): string {
  const bearer = request.headers.authorization?.replace(/^Bearer\s+/i, '');
  return String(bearer ?? request.headers['x-goog-api-key'] ?? '');
}

/** The texts a request asks for, read the way each service documents its request. */
export function textsOf(dialect: EmbeddingDialect, body: any): string[] {
  if (dialect === 'openai') return typeof body?.input === 'string' ? [body.input] : (body?.input ?? []);
  if (dialect === 'gemini') return (body?.requests ?? []).map((request: any) => request.content?.parts?.[0]?.text ?? '');
  return typeof body?.text === 'string' ? [body.text] : (body?.text ?? []);
}

/** Real services quote the credential they were sent in some errors: the client must redact it. */
function errorBody(dialect: EmbeddingDialect, status: number, message: string | undefined, credential: string): unknown {
  const text = message ?? `scripted failure ${status} for credential ${credential}`;
  if (dialect === 'openai')
    return { error: { message: text, type: status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error', code: null } };
  if (dialect === 'gemini')
    return { error: { code: status, message: text, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INVALID_ARGUMENT' } };
  return { result: null, success: false, errors: [{ code: 7000 + status, message: text }], messages: [] };
}

function answerBody(dialect: EmbeddingDialect, texts: string[], dims: number): unknown {
  const vectors = texts.map((text) => rawTestVector(text, dims));
  if (dialect === 'openai')
    // Last first: clients must place each embedding by its `index`.
    return {
      object: 'list',
      data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse(),
      model: 'test-embedding-model',
      usage: { prompt_tokens: texts.length, total_tokens: texts.length },
    };
  if (dialect === 'gemini') return { embeddings: vectors.map((values) => ({ values })) };
  return { result: { shape: [vectors.length, dims], data: vectors, pooling: 'mean' }, success: true, errors: [], messages: [] };
}

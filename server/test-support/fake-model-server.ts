// Test fixture of the external model services: a node:http server on 127.0.0.1 speaking OpenAI Chat Completions,
// Anthropic Messages or Gemini generateContent (whole or as server-sent events), answering from a script and
// recording every request it got.
// biome-ignore-all lint/suspicious/noExplicitAny: request bodies are whatever the SDK under test sent; tests assert their shape.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Workers AI speaks the OpenAI dialect under its own path. */
export type ModelDialect = 'openai' | 'anthropic' | 'gemini';

export interface ScriptedToolCall {
  name: string;
  arguments?: Record<string, unknown>;
  /** Sent as is instead of `arguments` (a JSON string for OpenAI, any value for Anthropic and Gemini): for malformed calls. */
  raw?: unknown;
}

/**
 * One model answer, or one HTTP failure; `delayMs` holds the answer back (for timeouts), `until` holds it until the
 * promise settles (for a test that acts between two steps of a turn).
 */
export type ScriptedReply =
  | { text?: string; toolCalls?: ScriptedToolCall[]; usage?: { input: number; output: number }; delayMs?: number; until?: Promise<unknown> }
  | { status: number; headers?: Record<string, string>; delayMs?: number };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
  /** The client closed the request before its answer was sent (an aborted call). */
  aborted?: boolean;
}

export interface FakeModelServer {
  /** Base URL to give the SDK (the provider's *_BASE_URL setting). */
  url: string;
  requests: RecordedRequest[];
  /** Replaces the replies still to come. */
  script(replies: ScriptedReply[]): void;
  /** Answers every later request with what `respond` makes of it (a model that reads what it is sent); `undefined` goes back to the script. */
  respondWith(respond: ((request: RecordedRequest) => ScriptedReply) | undefined): void;
  close(): Promise<void>;
}

export async function startFakeModelServer(dialect: ModelDialect): Promise<FakeModelServer> {
  const requests: RecordedRequest[] = [];
  let replies: ScriptedReply[] = [];
  let responder: ((request: RecordedRequest) => ScriptedReply) | undefined;
  const server = createServer((request, response) => {
    void readJson(request).then(async (body) => {
      const recorded: RecordedRequest = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body };
      requests.push(recorded);
      response.once('close', () => {
        if (!response.writableFinished) recorded.aborted = true;
      });
      const reply = responder ? responder(recorded) : (replies.shift() ?? { status: 500, headers: {} });
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      if ('until' in reply && reply.until) await reply.until;
      if (response.destroyed) return;
      if ('status' in reply) return send(response, reply.status, errorBody(dialect, reply.status, credentialOf(request)), reply.headers);
      const streamed = (body as any)?.stream === true || (request.url ?? '').includes(':streamGenerateContent');
      if (!streamed) return send(response, 200, answerBody(dialect, reply, requests.length));
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const frame of answerEvents(dialect, reply, requests.length)) response.write(frame);
      response.end();
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
    respondWith(respond) {
      responder = respond;
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

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** Real services quote the credential they were sent in some errors ("Incorrect API key provided: …"). */
function credentialOf(request: IncomingMessage): string {
  const bearer = request.headers.authorization?.replace(/^Bearer\s+/i, '');
  return String(bearer ?? request.headers['x-api-key'] ?? request.headers['x-goog-api-key'] ?? '');
}

function errorBody(dialect: ModelDialect, status: number, credential: string): unknown {
  const message = `scripted failure ${status} for credential ${credential}`;
  if (dialect === 'anthropic') return { type: 'error', error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message } };
  if (dialect === 'gemini') return { error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL' } };
  return { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null } };
}

function answerBody(dialect: ModelDialect, reply: Exclude<ScriptedReply, { status: number }>, serial: number): unknown {
  const calls = reply.toolCalls ?? [];
  const usage = reply.usage ?? { input: 100, output: 10 };
  if (dialect === 'anthropic') {
    const content: unknown[] = reply.text ? [{ type: 'text', text: reply.text }] : [];
    for (const [index, call] of calls.entries())
      content.push({ type: 'tool_use', id: `toolu_${serial}_${index}`, name: call.name, input: 'raw' in call ? call.raw : call.arguments });
    return {
      id: `msg_${serial}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content,
      stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    };
  }
  if (dialect === 'gemini') {
    const parts: unknown[] = reply.text ? [{ text: reply.text }] : [];
    for (const call of calls) parts.push({ functionCall: { name: call.name, args: 'raw' in call ? call.raw : call.arguments } });
    return {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: usage.input, candidatesTokenCount: usage.output, totalTokenCount: usage.input + usage.output },
      modelVersion: 'gemini-test',
    };
  }
  const toolCalls = calls.map((call, index) => ({
    id: `call_${serial}_${index}`,
    type: 'function',
    function: { name: call.name, arguments: 'raw' in call ? call.raw : JSON.stringify(call.arguments ?? {}) },
  }));
  return {
    id: `chatcmpl-${serial}`,
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [
      {
        index: 0,
        finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
        message: { role: 'assistant', content: reply.text ?? null, ...(calls.length > 0 ? { tool_calls: toolCalls } : {}) },
      },
    ],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
  };
}

/** Text in pieces of a few characters, as models stream it. */
function pieces(text: string | undefined, size = 6): string[] {
  const result: string[] = [];
  for (let at = 0; text && at < text.length; at += size) result.push(text.slice(at, at + size));
  return result;
}

function argumentsJson(call: ScriptedToolCall): string {
  if (!('raw' in call)) return JSON.stringify(call.arguments ?? {});
  return typeof call.raw === 'string' ? call.raw : JSON.stringify(call.raw);
}

/** Each provider's documented streaming format: OpenAI and Gemini send `data:` lines, Anthropic named events. */
function answerEvents(dialect: ModelDialect, reply: Exclude<ScriptedReply, { status: number }>, serial: number): string[] {
  const calls = reply.toolCalls ?? [];
  const usage = reply.usage ?? { input: 100, output: 10 };
  const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
  if (dialect === 'anthropic') {
    const event = (value: { type: string; [key: string]: unknown }) => `event: ${value.type}\n${data(value)}`;
    const frames = [
      event({
        type: 'message_start',
        message: {
          id: `msg_${serial}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-test',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.input, output_tokens: 1 },
        },
      }),
    ];
    let index = 0;
    if (reply.text) {
      frames.push(event({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      for (const piece of pieces(reply.text))
        frames.push(event({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }));
      frames.push(event({ type: 'content_block_stop', index }));
      index++;
    }
    for (const [position, call] of calls.entries()) {
      frames.push(
        event({
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: `toolu_${serial}_${position}`, name: call.name, input: {} },
        }),
      );
      for (const piece of pieces(argumentsJson(call), 8))
        frames.push(event({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } }));
      frames.push(event({ type: 'content_block_stop', index }));
      index++;
    }
    frames.push(
      event({
        type: 'message_delta',
        delta: { stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: usage.output },
      }),
    );
    frames.push(event({ type: 'message_stop' }));
    return frames;
  }
  if (dialect === 'gemini') {
    const chunk = (parts: unknown[], last = false) =>
      data({
        candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
        ...(last
          ? {
              usageMetadata: {
                promptTokenCount: usage.input,
                candidatesTokenCount: usage.output,
                totalTokenCount: usage.input + usage.output,
              },
            }
          : {}),
        modelVersion: 'gemini-test',
      });
    const frames = pieces(reply.text).map((piece) => chunk([{ text: piece }]));
    frames.push(
      chunk(
        calls.map((call) => ({ functionCall: { name: call.name, args: 'raw' in call ? call.raw : call.arguments } })),
        true,
      ),
    );
    return frames;
  }
  const chunk = (delta: unknown, finish: string | null = null) =>
    data({
      id: `chatcmpl-${serial}`,
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'test-model',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  const frames = [chunk({ role: 'assistant', content: '' })];
  for (const piece of pieces(reply.text)) frames.push(chunk({ content: piece }));
  for (const [index, call] of calls.entries()) {
    frames.push(
      chunk({ tool_calls: [{ index, id: `call_${serial}_${index}`, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    for (const piece of pieces(argumentsJson(call), 8)) frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  }
  frames.push(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'));
  frames.push(
    data({
      id: `chatcmpl-${serial}`,
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'test-model',
      choices: [],
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    }),
  );
  frames.push('data: [DONE]\n\n');
  return frames;
}

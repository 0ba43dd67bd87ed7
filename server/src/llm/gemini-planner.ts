// Google Gemini through @google/genai: generateContent with function declarations behind the Planner interface.
import {
  type Content,
  type FunctionDeclaration,
  FunctionCallingConfigMode,
  type GenerateContentResponse,
  GoogleGenAI,
  type Part,
} from '@google/genai';
import type { ToolSpec } from '@lumibase/shared';
import { callWithRetries } from './call-with-retries.js';
import { kindOfStatus, ModelCallError, redactSecrets, retryAfterMs } from './model-call-error.js';
import type { PlannedToolCall, Planner, PlannerInput, PlannerMessage, PlannerOutput, RemotePlannerOptions } from './planner.js';
import { systemText } from './system-text.js';
import { ToolCache } from './tool-cache.js';

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

export interface GeminiPlannerOptions extends RemotePlannerOptions {
  fetch?: typeof fetch;
}

export class GeminiPlanner implements Planner {
  readonly provider = 'gemini' as const;
  readonly model: string;
  private readonly client: GoogleGenAI;
  private readonly tools = new ToolCache<FunctionDeclaration[]>((specs) => specs.map(toDeclaration));

  constructor(private readonly options: GeminiPlannerOptions) {
    this.model = options.model;
    const baseFetch = options.fetch ?? fetch;
    this.client = new GoogleGenAI({
      apiKey: options.apiKey,
      httpOptions: {
        baseUrl: options.baseURL ?? GEMINI_DEFAULT_BASE_URL,
        timeout: options.timeoutMs,
        // @google/genai retries only when retryOptions are given; one attempt, callWithRetries owns retrying.
        retryOptions: { attempts: 1 },
        // The SDK's ApiError has no headers: failing answers are described here, where Retry-After is still at hand.
        fetch: (input, init) => this.fetchOrDescribe(baseFetch, input, init),
      },
    });
  }

  async plan({ messages, tools, signal, onText, toolChoice }: PlannerInput): Promise<PlannerOutput> {
    const system = systemText(messages);
    const request = {
      model: this.model,
      contents: toContents(messages),
      config: {
        ...(system ? { systemInstruction: system } : {}),
        ...(tools.length > 0 ? { tools: [{ functionDeclarations: this.tools.get(tools) }] } : {}),
        // The wrap-up after the step limit: the model must answer in text.
        ...(toolChoice === 'none' && tools.length > 0
          ? { toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.NONE } } }
          : {}),
        ...(signal ? { abortSignal: signal } : {}),
      },
    };
    const withRetries = <T>(call: () => Promise<T>) => callWithRetries(call, (error) => this.describe(error), this.options.retry, signal);
    const output: Required<Pick<PlannerOutput, 'toolCalls'>> & { text: string[]; usage?: PlannerOutput['usage'] } = {
      text: [],
      toolCalls: [],
    };
    if (!onText) {
      collect(await withRetries(() => this.client.models.generateContent(request)), output);
    } else {
      // Each chunk is a whole GenerateContentResponse: text in pieces, function calls whole, usage in the last.
      const stream = await withRetries(() => this.client.models.generateContentStream(request));
      try {
        for await (const chunk of stream) collect(chunk, output, onText);
      } catch (error) {
        throw this.describe(error);
      }
    }
    if (output.text.length === 0 && output.toolCalls.length === 0 && !output.usage)
      throw new ModelCallError({ provider: 'gemini', kind: 'malformed_output', message: 'gemini answered without content' });
    return {
      ...(output.text.length > 0 ? { text: output.text.join('') } : {}),
      toolCalls: output.toolCalls,
      ...(output.usage ? { usage: output.usage } : {}),
    };
  }

  private async fetchOrDescribe(baseFetch: typeof fetch, input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> {
    const response = await baseFetch(input, init);
    if (response.ok) return response;
    const body = await response.text().catch(() => '');
    throw new ModelCallError({
      provider: 'gemini',
      kind: kindOfStatus(response.status),
      status: response.status,
      message: `gemini answered ${response.status}: ${redactSecrets(body, [this.options.apiKey])}`,
      retryAfterMs: retryAfterMs(response.headers),
    });
  }

  private describe(error: unknown): ModelCallError {
    const name = error instanceof Error ? error.name : '';
    if (name === 'AbortError' || name === 'TimeoutError')
      return new ModelCallError({ provider: 'gemini', kind: 'timeout', message: 'gemini did not answer in time' });
    const message = redactSecrets(error instanceof Error ? error.message : String(error), [this.options.apiKey]);
    // fetch rejects with a TypeError when nothing answers (refused connection, unknown host).
    if (error instanceof TypeError)
      return new ModelCallError({ provider: 'gemini', kind: 'unreachable', message: `gemini is unreachable: ${message}` });
    return new ModelCallError({ provider: 'gemini', kind: 'malformed_output', message: `gemini call failed: ${message}` });
  }
}

function collect(
  response: GenerateContentResponse,
  output: { text: string[]; toolCalls: PlannedToolCall[]; usage?: PlannerOutput['usage'] },
  onText?: (piece: string) => void,
): void {
  for (const part of response.candidates?.[0]?.content?.parts ?? []) {
    if (typeof part.text === 'string' && part.text && !part.thought) {
      output.text.push(part.text);
      onText?.(part.text);
    }
    if (part.functionCall) {
      const { id, name, args } = part.functionCall;
      output.toolCalls.push(toolCallOf(id ?? `gemini-${output.toolCalls.length}`, name ?? '', args));
    }
  }
  const usage = response.usageMetadata;
  if (usage) output.usage = { inputTokens: usage.promptTokenCount ?? 0, outputTokens: usage.candidatesTokenCount ?? 0 };
}

function toolCallOf(id: string, name: string, args: unknown): PlannedToolCall {
  if (args === undefined) return { id, name, arguments: {} };
  if (args !== null && typeof args === 'object' && !Array.isArray(args)) return { id, name, arguments: args };
  return { id, name, arguments: args, argumentsError: 'arguments must be a JSON object' };
}

function toDeclaration({ name, description, parameters }: ToolSpec): FunctionDeclaration {
  return { name, description, parametersJsonSchema: parameters };
}

/** Gemini's roles are user and model; a function's result is a user part naming the function. */
function toContents(messages: readonly PlannerMessage[]): Content[] {
  const contents: Content[] = [];
  const push = (role: 'user' | 'model', parts: Part[]) => {
    const last = contents.at(-1);
    if (last && last.role === role) last.parts?.push(...parts);
    else contents.push({ role, parts });
  };
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (message.role === 'tool') {
      push('user', [
        {
          functionResponse: {
            ...(message.toolCallId ? { id: message.toolCallId } : {}),
            name: message.toolName ?? 'tool',
            response: { result: message.content },
          },
        },
      ]);
    } else if (message.role === 'user') {
      push('user', [{ text: message.content }]);
    } else {
      const parts: Part[] = message.content ? [{ text: message.content }] : [];
      for (const call of message.toolCalls ?? [])
        parts.push({
          functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args: (call.arguments ?? {}) as Record<string, unknown> },
        });
      if (parts.length > 0) push('model', parts);
    }
  }
  return contents;
}

// Chat Completions with function tools through the `openai` SDK: OpenAI itself and OpenAI-compatible servers.
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ToolSpec } from '@lumibase/shared';
import { callWithRetries } from './call-with-retries.js';
import { ModelCallError } from './model-call-error.js';
import { toolCallFromJson } from './parse-tool-arguments.js';
import type { Planner, PlannerInput, PlannerMessage, PlannerOutput, RemotePlannerOptions } from './planner.js';
import { describeSdkError } from './sdk-error.js';
import { ToolCache } from './tool-cache.js';

export interface ChatCompletionsPlannerOptions extends RemotePlannerOptions {
  provider: 'openai' | 'workers-ai';
  baseURL: string;
}

/** The per-request options this planner passes (the SDK does not export its type). */
type RequestOptions = { signal?: AbortSignal };

const SDK_ERRORS = { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError };

export class ChatCompletionsPlanner implements Planner {
  readonly provider: 'openai' | 'workers-ai';
  readonly model: string;
  private readonly client: OpenAI;
  private readonly tools = new ToolCache<ChatCompletionTool[]>((specs) => specs.map(toOpenAiTool));

  constructor(private readonly options: ChatCompletionsPlannerOptions) {
    this.provider = options.provider;
    this.model = options.model;
    // maxRetries 0: callWithRetries owns retrying, so the SDK's never multiplies ours.
    this.client = new OpenAI({ apiKey: options.apiKey, baseURL: options.baseURL, timeout: options.timeoutMs, maxRetries: 0 });
  }

  async plan({ messages, tools, signal, onText, toolChoice }: PlannerInput): Promise<PlannerOutput> {
    // No tools at all is sent as none (an empty list is refused); `tool_choice: none` keeps them declared.
    const request: ChatCompletionCreateParamsNonStreaming = {
      model: this.model,
      messages: messages.map(toOpenAiMessage),
      ...(tools.length > 0 ? { tools: this.tools.get(tools), ...(toolChoice ? { tool_choice: toolChoice } : {}) } : {}),
    };
    const options = signal ? { signal } : {};
    return onText ? this.streamed(request, options, onText) : this.whole(request, options);
  }

  private async whole(request: ChatCompletionCreateParamsNonStreaming, options: RequestOptions): Promise<PlannerOutput> {
    const response = await this.withRetries(() => this.client.chat.completions.create(request, options), options.signal);
    const message = response.choices?.[0]?.message;
    if (!message)
      throw new ModelCallError({
        provider: this.provider,
        kind: 'malformed_output',
        message: `${this.provider} answered without a message`,
      });
    const toolCalls = (message.tool_calls ?? []).flatMap((call) =>
      call.type === 'function' ? [toolCallFromJson({ id: call.id, name: call.function.name, json: call.function.arguments })] : [],
    );
    return {
      ...(message.content ? { text: message.content } : {}),
      toolCalls,
      ...(response.usage ? { usage: { inputTokens: response.usage.prompt_tokens, outputTokens: response.usage.completion_tokens } } : {}),
    };
  }

  /** Retries cover opening the stream (where 429 and 5xx show); a stream that breaks halfway is a failure of the step. */
  private async streamed(
    request: ChatCompletionCreateParamsNonStreaming,
    options: RequestOptions,
    onText: (piece: string) => void,
  ): Promise<PlannerOutput> {
    const stream = await this.withRetries(
      () => this.client.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } }, options),
      options.signal,
    );
    let text = '';
    let usage: PlannerOutput['usage'];
    // Tool calls arrive in pieces keyed by index: the id and name first, the JSON arguments spread over chunks.
    const calls = new Map<number, { id: string; name: string; json: string }>();
    try {
      for await (const chunk of stream) {
        if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
        const delta = chunk.choices?.[0]?.delta;
        if (delta?.content) {
          text += delta.content;
          onText(delta.content);
        }
        for (const piece of delta?.tool_calls ?? []) {
          const call = calls.get(piece.index) ?? { id: '', name: '', json: '' };
          if (piece.id) call.id = piece.id;
          if (piece.function?.name) call.name += piece.function.name;
          if (piece.function?.arguments) call.json += piece.function.arguments;
          calls.set(piece.index, call);
        }
      }
    } catch (error) {
      throw this.describe(error);
    }
    const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => toolCallFromJson(call));
    return { ...(text ? { text } : {}), toolCalls, ...(usage ? { usage } : {}) };
  }

  private withRetries<T>(call: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    return callWithRetries(call, (error) => this.describe(error), this.options.retry, signal);
  }

  private describe(error: unknown): ModelCallError {
    return describeSdkError(error, { provider: this.provider, classes: SDK_ERRORS, secrets: [this.options.apiKey] });
  }
}

function toOpenAiTool({ name, description, parameters }: ToolSpec): ChatCompletionTool {
  return { type: 'function', function: { name, description, parameters } };
}

function toOpenAiMessage(message: PlannerMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId ?? '', content: message.content };
    case 'assistant': {
      if (!message.toolCalls?.length) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        content: message.content || null,
        tool_calls: message.toolCalls.map((call, index) => ({
          id: call.id ?? `call-${index}`,
          type: 'function' as const,
          function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
        })),
      };
    }
  }
}

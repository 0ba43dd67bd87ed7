// Anthropic Messages with native tool_use / tool_result blocks behind the Planner interface.
import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageCreateParamsNonStreaming, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ToolSpec } from '@lumibase/shared';
import { callWithRetries } from './call-with-retries.js';
import { ModelCallError } from './model-call-error.js';
import { toolCallFromJson } from './parse-tool-arguments.js';
import type { PlannedToolCall, Planner, PlannerInput, PlannerMessage, PlannerOutput, RemotePlannerOptions } from './planner.js';
import { describeSdkError } from './sdk-error.js';
import { systemText } from './system-text.js';
import { ToolCache } from './tool-cache.js';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
const MAX_OUTPUT_TOKENS = 2048;
const CACHED = { type: 'ephemeral' as const };
const SDK_ERRORS = { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError };

export class AnthropicPlanner implements Planner {
  readonly provider = 'anthropic' as const;
  readonly model: string;
  private readonly client: Anthropic;
  private readonly tools = new ToolCache<Tool[]>((specs) =>
    specs.map((spec, index) => ({ ...toAnthropicTool(spec), ...(index === specs.length - 1 ? { cache_control: CACHED } : {}) })),
  );

  constructor(private readonly options: RemotePlannerOptions) {
    this.model = options.model;
    // maxRetries 0: callWithRetries owns retrying, so the SDK's never multiplies ours.
    this.client = new Anthropic({
      apiKey: options.apiKey,
      baseURL: options.baseURL ?? ANTHROPIC_DEFAULT_BASE_URL,
      timeout: options.timeoutMs,
      maxRetries: 0,
    });
  }

  async plan({ messages, tools, signal, onText, toolChoice }: PlannerInput): Promise<PlannerOutput> {
    const system = systemText(messages);
    // Prompt caching across the turn's steps: the tools, the system text and the conversation so far
    // are the same prefix at every step, so each is a cache breakpoint (at most four are allowed).
    const request: MessageCreateParamsNonStreaming = {
      model: this.model,
      max_tokens: MAX_OUTPUT_TOKENS,
      ...(system ? { system: [{ type: 'text', text: system, cache_control: CACHED }] } : {}),
      messages: withCacheBreakpoint(toAnthropicMessages(messages)),
      ...(tools.length > 0
        ? { tools: this.tools.get(tools), ...(toolChoice === 'none' ? { tool_choice: { type: 'none' as const } } : {}) }
        : {}),
    };
    const options = signal ? { signal } : {};
    return onText ? this.streamed(request, options, onText) : this.whole(request, options);
  }

  private async whole(request: MessageCreateParamsNonStreaming, options: { signal?: AbortSignal }): Promise<PlannerOutput> {
    const response = await this.withRetries(() => this.client.messages.create(request, options), options.signal);
    if (!Array.isArray(response.content))
      throw new ModelCallError({ provider: 'anthropic', kind: 'malformed_output', message: 'anthropic answered without content' });
    const text: string[] = [];
    const toolCalls: PlannedToolCall[] = [];
    for (const block of response.content) {
      if (block.type === 'text') text.push(block.text);
      else if (block.type === 'tool_use') toolCalls.push(toolCallOf(block.id, block.name, block.input));
    }
    return {
      ...(text.length > 0 ? { text: text.join('') } : {}),
      toolCalls,
      ...(response.usage ? { usage: { inputTokens: response.usage.input_tokens, outputTokens: response.usage.output_tokens } } : {}),
    };
  }

  /**
   * Server-sent events, gathered by hand: a tool_use block's input arrives as pieces of JSON text, and
   * a model that streams malformed JSON gets its call denied rather than the turn thrown.
   */
  private async streamed(
    request: MessageCreateParamsNonStreaming,
    options: { signal?: AbortSignal },
    onText: (piece: string) => void,
  ): Promise<PlannerOutput> {
    const stream = await this.withRetries(() => this.client.messages.create({ ...request, stream: true }, options), options.signal);
    const text: string[] = [];
    const calls = new Map<number, { id: string; name: string; json: string }>();
    const usage = { inputTokens: 0, outputTokens: 0 };
    try {
      for await (const event of stream) {
        if (event.type === 'message_start') {
          usage.inputTokens = event.message.usage.input_tokens;
          usage.outputTokens = event.message.usage.output_tokens;
        } else if (event.type === 'message_delta') {
          usage.outputTokens = event.usage.output_tokens;
        } else if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
          calls.set(event.index, { id: event.content_block.id, name: event.content_block.name, json: '' });
        } else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
          text.push(event.delta.text);
          onText(event.delta.text);
        } else if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
          const call = calls.get(event.index);
          if (call) call.json += event.delta.partial_json;
        }
      }
    } catch (error) {
      throw this.describe(error);
    }
    const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => toolCallFromJson(call));
    return { ...(text.length > 0 ? { text: text.join('') } : {}), toolCalls, usage };
  }

  private withRetries<T>(call: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    return callWithRetries(call, (error) => this.describe(error), this.options.retry, signal);
  }

  private describe(error: unknown): ModelCallError {
    return describeSdkError(error, { provider: 'anthropic', classes: SDK_ERRORS, secrets: [this.options.apiKey] });
  }
}

/** `input` is parsed JSON already; anything but an object is refused as the model's mistake. */
function toolCallOf(id: string, name: string, input: unknown): PlannedToolCall {
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) return { id, name, arguments: input };
  return { id, name, arguments: input, argumentsError: 'arguments must be a JSON object' };
}

function toAnthropicTool({ name, description, parameters }: ToolSpec): Tool {
  return { name, description, input_schema: parameters as Tool['input_schema'] };
}

/** Tool results travel in a user message; consecutive messages of one role are merged into one. */
function toAnthropicMessages(messages: readonly PlannerMessage[]): MessageParam[] {
  const result: MessageParam[] = [];
  const push = (role: 'user' | 'assistant', blocks: ContentBlockParam[]) => {
    const last = result.at(-1);
    if (last && last.role === role && Array.isArray(last.content)) last.content.push(...blocks);
    else result.push({ role, content: blocks });
  };
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (message.role === 'tool') {
      push('user', [
        {
          type: 'tool_result',
          tool_use_id: message.toolCallId ?? '',
          content: message.content,
          // A denial is an error result: the model sees the call did not happen.
          ...(message.isError ? { is_error: true } : {}),
        },
      ]);
    } else if (message.role === 'user') {
      push('user', [{ type: 'text', text: message.content }]);
    } else {
      const blocks: ContentBlockParam[] = message.content ? [{ type: 'text', text: message.content }] : [];
      for (const [index, call] of (message.toolCalls ?? []).entries())
        blocks.push({ type: 'tool_use', id: call.id ?? `call-${index}`, name: call.name, input: call.arguments ?? {} });
      if (blocks.length > 0) push('assistant', blocks);
    }
  }
  return result;
}

/** The conversation so far is cached at its last block: the next step's request starts with it. */
function withCacheBreakpoint(messages: MessageParam[]): MessageParam[] {
  const last = messages.at(-1);
  const block = Array.isArray(last?.content) ? last.content.at(-1) : undefined;
  if (block && block.type !== 'thinking' && block.type !== 'redacted_thinking') Object.assign(block, { cache_control: CACHED });
  return messages;
}

// Chat Completions with function tools through the `openai` SDK: OpenAI itself and OpenAI-compatible servers.
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ToolSpec } from '@lumibase/shared';
import { callWithRetries, type RetryOptions } from './call-with-retries.js';
import { ModelCallError } from './model-call-error.js';
import { toolCallFromJson } from './parse-tool-arguments.js';
import type { Planner, PlannerInput, PlannerMessage, PlannerOutput } from './planner.js';
import { describeSdkError } from './sdk-error.js';
import { ToolCache } from './tool-cache.js';

export interface ChatCompletionsPlannerOptions {
  provider: 'openai' | 'workers-ai';
  apiKey: string;
  baseURL: string;
  model: string;
  timeoutMs: number;
  retry?: RetryOptions;
}

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

  async plan({ messages, tools, signal }: PlannerInput): Promise<PlannerOutput> {
    const request = { model: this.model, messages: messages.map(toOpenAiMessage), tools: this.tools.get(tools) };
    const response = await callWithRetries(
      () => this.client.chat.completions.create(request, signal ? { signal } : {}),
      (error) => describeSdkError(error, { provider: this.provider, classes: SDK_ERRORS, secrets: [this.options.apiKey] }),
      this.options.retry,
    );
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

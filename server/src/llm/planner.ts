// The one interface every language-model provider implements: messages and tools in, text and tool calls out.
import type { ToolSpec } from '@lumibase/shared';
import type { RetryOptions } from './call-with-retries.js';

import type { LLM_PROVIDERS } from '../config.js';

export type LlmProvider = (typeof LLM_PROVIDERS)[number];

export type PlannerRole = 'system' | 'user' | 'assistant' | 'tool';

/** A tool call as the model made it. The arguments are untrusted: the harness parses them. */
export interface PlannedToolCall {
  id?: string;
  name: string;
  arguments: unknown;
  /** Set when the model sent arguments that are not a JSON object: the call is denied, never run. */
  argumentsError?: string;
}

export interface PlannerMessage {
  role: PlannerRole;
  content: string;
  /** For an `assistant` message of an earlier step: the calls it made (their results follow as `tool` messages). */
  toolCalls?: PlannedToolCall[];
  /** For a `tool` message: the call it answers (providers that pair results with calls need it). */
  toolCallId?: string;
  /** For a `tool` message: the skill it answers (Gemini pairs results by name). */
  toolName?: string;
  /** For a `tool` message: the call was denied (Anthropic marks such results `is_error`). */
  isError?: boolean;
}

export interface PlannerInput {
  /** Oldest first; the last `user` message is the current one. */
  messages: PlannerMessage[];
  /** Provider-neutral tool specs (JSON Schema parameters); each provider wraps them in its own format. */
  tools: ToolSpec[];
  signal?: AbortSignal;
  /** `none`: the model must answer in text (the wrap-up after the step limit); the tools stay declared. */
  toolChoice?: 'auto' | 'none';
  /** The site's collection names, for planners that offer examples (the echo planner's help). */
  siteCollections?: readonly string[];
  /** When given, the planner streams and hands over the reply's text in pieces as they come. */
  onText?: (piece: string) => void;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface PlannerOutput {
  text?: string;
  /** Zero or more, in the order the model made them. */
  toolCalls: PlannedToolCall[];
  /** Reported by remote providers; echo has none. */
  usage?: TokenUsage;
}

/** How each model call of a remote planner is made. */
export interface ModelCallOptions {
  model: string;
  /** LLM_TIMEOUT_MS: one try of one model call. */
  timeoutMs: number;
  retry?: RetryOptions;
}

/** What a remote planner is built from; `baseURL` unset means the provider's own service. */
export interface RemotePlannerOptions extends ModelCallOptions {
  apiKey: string;
  baseURL?: string | undefined;
}

export interface Planner {
  readonly provider: LlmProvider;
  readonly model?: string;
  plan(input: PlannerInput): Promise<PlannerOutput>;
}

// The one interface every language-model provider implements: messages and tools in, text and tool calls out.
import type { ToolSpec } from '@lumibase/shared';

import type { LLM_PROVIDERS } from '../config.js';

export type LlmProvider = (typeof LLM_PROVIDERS)[number];

export type PlannerRole = 'system' | 'user' | 'assistant' | 'tool';

export interface PlannerMessage {
  role: PlannerRole;
  content: string;
  /** For a `tool` message: the call it answers (providers that pair results with calls need it). */
  toolCallId?: string;
}

export interface PlannerInput {
  /** Oldest first; the last `user` message is the current one. */
  messages: PlannerMessage[];
  /** Provider-neutral tool specs (JSON Schema parameters); each provider wraps them in its own format. */
  tools: ToolSpec[];
  signal?: AbortSignal;
}

/** A tool call as the model made it. The arguments are untrusted: the harness parses them. */
export interface PlannedToolCall {
  id?: string;
  name: string;
  arguments: unknown;
}

export interface PlannerOutput {
  text?: string;
  /** Zero or more, in the order the model made them. */
  toolCalls: PlannedToolCall[];
}

export interface Planner {
  readonly provider: LlmProvider;
  readonly model?: string;
  plan(input: PlannerInput): Promise<PlannerOutput>;
}

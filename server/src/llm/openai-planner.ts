// OpenAI (or any OpenAI-compatible server at OPENAI_BASE_URL) behind the Planner interface.
import type { RetryOptions } from './call-with-retries.js';
import { ChatCompletionsPlanner } from './chat-completions-planner.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export function createOpenAIPlanner(options: { apiKey: string; baseURL?: string; model: string; timeoutMs: number; retry?: RetryOptions }) {
  return new ChatCompletionsPlanner({ provider: 'openai', ...options, baseURL: options.baseURL ?? OPENAI_DEFAULT_BASE_URL });
}

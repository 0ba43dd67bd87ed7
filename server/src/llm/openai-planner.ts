// OpenAI (or any OpenAI-compatible server at OPENAI_BASE_URL) behind the Planner interface.
import { ChatCompletionsPlanner } from './chat-completions-planner.js';
import type { RemotePlannerOptions } from './planner.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export function createOpenAIPlanner(options: RemotePlannerOptions) {
  return new ChatCompletionsPlanner({ ...options, provider: 'openai', baseURL: options.baseURL ?? OPENAI_DEFAULT_BASE_URL });
}

// Cloudflare Workers AI through its OpenAI-compatible endpoint: …/accounts/<account>/ai/v1/chat/completions.
import type { RetryOptions } from './call-with-retries.js';
import { ChatCompletionsPlanner } from './chat-completions-planner.js';

export const WORKERS_AI_DEFAULT_BASE_URL = 'https://api.cloudflare.com/client/v4';

export function workersAiBaseUrl(baseURL: string, accountId: string): string {
  return `${baseURL.replace(/\/+$/, '')}/accounts/${encodeURIComponent(accountId)}/ai/v1`;
}

export function createWorkersAiPlanner(options: {
  accountId: string;
  apiToken: string;
  baseURL?: string;
  model: string;
  timeoutMs: number;
  retry?: RetryOptions;
}) {
  const { accountId, apiToken, baseURL = WORKERS_AI_DEFAULT_BASE_URL, ...rest } = options;
  return new ChatCompletionsPlanner({ provider: 'workers-ai', ...rest, apiKey: apiToken, baseURL: workersAiBaseUrl(baseURL, accountId) });
}

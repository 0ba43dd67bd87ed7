// Cloudflare Workers AI through its OpenAI-compatible endpoint: …/accounts/<account>/ai/v1/chat/completions.
import { ChatCompletionsPlanner } from './chat-completions-planner.js';
import type { RemotePlannerOptions } from './planner.js';

export const WORKERS_AI_DEFAULT_BASE_URL = 'https://api.cloudflare.com/client/v4';

export function workersAiBaseUrl(baseURL: string, accountId: string): string {
  return `${baseURL.replace(/\/+$/, '')}/accounts/${encodeURIComponent(accountId)}/ai/v1`;
}

/** `apiKey` is the Cloudflare API token; `baseURL` the Cloudflare API's (…/client/v4). */
export function createWorkersAiPlanner({ accountId, baseURL, ...options }: RemotePlannerOptions & { accountId: string }) {
  return new ChatCompletionsPlanner({
    ...options,
    provider: 'workers-ai',
    baseURL: workersAiBaseUrl(baseURL ?? WORKERS_AI_DEFAULT_BASE_URL, accountId),
  });
}

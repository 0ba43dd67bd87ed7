// Picks the Copilot's planner from the configuration; echo whenever the chosen provider cannot run.
import type { Config } from '../config.js';
import { AnthropicPlanner } from './anthropic-planner.js';
import type { RetryOptions } from './call-with-retries.js';
import { EchoPlanner } from './echo-planner.js';
import { GeminiPlanner } from './gemini-planner.js';
import { createOpenAIPlanner } from './openai-planner.js';
import type { LlmProvider, ModelCallOptions, Planner } from './planner.js';
import { createWorkersAiPlanner } from './workers-ai-planner.js';

export type PlannerConfig = Pick<
  Config,
  | 'LLM_PROVIDER'
  | 'LLM_MODEL'
  | 'OPENAI_API_KEY'
  | 'ANTHROPIC_API_KEY'
  | 'GEMINI_API_KEY'
  | 'CLOUDFLARE_ACCOUNT_ID'
  | 'CLOUDFLARE_API_TOKEN'
  | 'OPENAI_BASE_URL'
  | 'ANTHROPIC_BASE_URL'
  | 'GEMINI_BASE_URL'
  | 'WORKERS_AI_BASE_URL'
  | 'LLM_TIMEOUT_MS'
>;

type RemoteProvider = Exclude<LlmProvider, 'echo'>;

export const DEFAULT_MODELS: Record<RemoteProvider, string> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-sonnet-5-5',
  gemini: 'gemini-2.5-flash',
  'workers-ai': '@cf/meta/llama-3.1-8b-instruct',
};

/** The settings each provider cannot run without. */
const REQUIRED_CREDENTIALS: Record<RemoteProvider, (keyof PlannerConfig)[]> = {
  openai: ['OPENAI_API_KEY'],
  anthropic: ['ANTHROPIC_API_KEY'],
  gemini: ['GEMINI_API_KEY'],
  'workers-ai': ['CLOUDFLARE_ACCOUNT_ID', 'CLOUDFLARE_API_TOKEN'],
};

export type PlannerFactory = (options: { config: PlannerConfig } & ModelCallOptions) => Planner;

/** One file per provider in this folder; createPlanner has checked the credentials each one reads. */
export const PROVIDER_FACTORIES: Record<RemoteProvider, PlannerFactory> = {
  openai: ({ config, ...call }) => createOpenAIPlanner({ ...call, apiKey: config.OPENAI_API_KEY!, baseURL: config.OPENAI_BASE_URL }),
  anthropic: ({ config, ...call }) =>
    new AnthropicPlanner({ ...call, apiKey: config.ANTHROPIC_API_KEY!, baseURL: config.ANTHROPIC_BASE_URL }),
  gemini: ({ config, ...call }) => new GeminiPlanner({ ...call, apiKey: config.GEMINI_API_KEY!, baseURL: config.GEMINI_BASE_URL }),
  'workers-ai': ({ config, ...call }) =>
    createWorkersAiPlanner({
      ...call,
      accountId: config.CLOUDFLARE_ACCOUNT_ID!,
      apiKey: config.CLOUDFLARE_API_TOKEN!,
      baseURL: config.WORKERS_AI_BASE_URL,
    }),
};

export interface CreatePlannerOptions {
  factories?: Partial<Record<RemoteProvider, PlannerFactory>>;
  /** Told why the configured provider was replaced by echo (the composition root logs it). */
  onFallback?: (reason: string) => void;
  /** Retry settings; its `logger` hears each retried model call (never the key). */
  retry?: RetryOptions;
}

export function createPlanner(
  config: PlannerConfig,
  { factories = PROVIDER_FACTORIES, onFallback, retry = {} }: CreatePlannerOptions = {},
): Planner {
  const provider = config.LLM_PROVIDER;
  if (provider === 'echo') return new EchoPlanner();
  const missing = REQUIRED_CREDENTIALS[provider].filter((name) => !config[name]);
  if (missing.length > 0) {
    onFallback?.(`LLM_PROVIDER=${provider} needs ${missing.join(', ')}; using the echo planner`);
    return new EchoPlanner();
  }
  const factory = factories[provider];
  if (!factory) {
    onFallback?.(`LLM_PROVIDER=${provider} is not available yet; using the echo planner`);
    return new EchoPlanner();
  }
  return factory({ config, model: config.LLM_MODEL ?? DEFAULT_MODELS[provider], timeoutMs: config.LLM_TIMEOUT_MS, retry });
}

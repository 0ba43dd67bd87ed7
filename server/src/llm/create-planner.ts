// Picks the Copilot's planner from the configuration; echo whenever the chosen provider cannot run.
import type { Config } from '../config.js';
import { EchoPlanner } from './echo-planner.js';
import type { LlmProvider, Planner } from './planner.js';

export type PlannerConfig = Pick<
  Config,
  | 'LLM_PROVIDER'
  | 'LLM_MODEL'
  | 'OPENAI_API_KEY'
  | 'ANTHROPIC_API_KEY'
  | 'GEMINI_API_KEY'
  | 'CLOUDFLARE_ACCOUNT_ID'
  | 'CLOUDFLARE_API_TOKEN'
>;

type RemoteProvider = Exclude<LlmProvider, 'echo'>;

/** Defaults the seeds fix; the others are chosen when their adapters land. */
export const DEFAULT_MODELS: Partial<Record<RemoteProvider, string>> = {
  openai: 'gpt-4o-mini',
  'workers-ai': '@cf/meta/llama-3.1-8b-instruct',
};

/** The settings each provider cannot run without. */
const REQUIRED_CREDENTIALS: Record<RemoteProvider, (keyof PlannerConfig)[]> = {
  openai: ['OPENAI_API_KEY'],
  anthropic: ['ANTHROPIC_API_KEY'],
  gemini: ['GEMINI_API_KEY'],
  'workers-ai': ['CLOUDFLARE_ACCOUNT_ID', 'CLOUDFLARE_API_TOKEN'],
};

export type PlannerFactory = (options: { config: PlannerConfig; model: string | undefined }) => Planner;

/**
 * The seam for real providers: one file per provider in this folder, registered here, e.g.
 * `openai: ({ config, model }) => new OpenAIPlanner({ apiKey: config.OPENAI_API_KEY!, model })`.
 */
export const PROVIDER_FACTORIES: Partial<Record<RemoteProvider, PlannerFactory>> = {};

export interface CreatePlannerOptions {
  factories?: Partial<Record<RemoteProvider, PlannerFactory>>;
  /** Told why the configured provider was replaced by echo (the composition root logs it). */
  onFallback?: (reason: string) => void;
}

export function createPlanner(config: PlannerConfig, { factories = PROVIDER_FACTORIES, onFallback }: CreatePlannerOptions = {}): Planner {
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
  return factory({ config, model: config.LLM_MODEL ?? DEFAULT_MODELS[provider] });
}

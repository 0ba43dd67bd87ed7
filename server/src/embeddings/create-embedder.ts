// Picks the embedder from the configuration; the local one whenever the chosen provider cannot run.
import type { Config } from '../config.js';
import type { Embedder } from './embedder.js';
import { LocalEmbedder } from './local-embedder.js';

export type EmbedderConfig = Pick<
  Config,
  | 'EMBEDDINGS_PROVIDER'
  | 'EMBEDDINGS_MODEL'
  | 'OPENAI_API_KEY'
  | 'OPENAI_BASE_URL'
  | 'GEMINI_API_KEY'
  | 'GEMINI_BASE_URL'
  | 'CLOUDFLARE_ACCOUNT_ID'
  | 'CLOUDFLARE_API_TOKEN'
  | 'WORKERS_AI_BASE_URL'
  | 'LLM_TIMEOUT_MS'
>;

type RemoteProvider = Exclude<Config['EMBEDDINGS_PROVIDER'], 'local'>;

export type EmbedderFactory = (config: EmbedderConfig) => Embedder;

/** The remote embedders, by provider; each factory may assume its credentials are set (checked below). */
export const EMBEDDER_FACTORIES: Partial<Record<RemoteProvider, EmbedderFactory>> = {};

const REQUIRED_CREDENTIALS: Record<RemoteProvider, (keyof EmbedderConfig)[]> = {
  openai: ['OPENAI_API_KEY'],
  gemini: ['GEMINI_API_KEY'],
  'workers-ai': ['CLOUDFLARE_ACCOUNT_ID', 'CLOUDFLARE_API_TOKEN'],
};

export interface CreateEmbedderOptions {
  factories?: Partial<Record<RemoteProvider, EmbedderFactory>>;
  /** Told why the configured provider was replaced by the local embedder (the composition root logs it). */
  onFallback?: (reason: string) => void;
}

export function createEmbedder(
  config: EmbedderConfig,
  { factories = EMBEDDER_FACTORIES, onFallback }: CreateEmbedderOptions = {},
): Embedder {
  const provider = config.EMBEDDINGS_PROVIDER;
  if (provider === 'local') return new LocalEmbedder();
  const missing = REQUIRED_CREDENTIALS[provider].filter((name) => !config[name]);
  if (missing.length > 0) {
    onFallback?.(`EMBEDDINGS_PROVIDER=${provider} needs ${missing.join(', ')}; using the local embedder`);
    return new LocalEmbedder();
  }
  const factory = factories[provider];
  if (!factory) {
    onFallback?.(`EMBEDDINGS_PROVIDER=${provider} is not available in this build; using the local embedder`);
    return new LocalEmbedder();
  }
  return factory(config);
}

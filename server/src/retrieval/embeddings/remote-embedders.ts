// Builds a remote embedder from the settings: the provider's key and base URL (shared with the language models).
import type { Config } from '../../config.js';
import type { Embedder } from './embedder.js';
import { GeminiEmbedder } from './gemini-embedder.js';
import { OpenAIEmbedder } from './openai-embedder.js';
import type { RemoteEmbeddingProvider } from './remote-embedding.js';
import { WorkersAiEmbedder } from './workers-ai-embedder.js';

export type { RemoteEmbeddingProvider } from './remote-embedding.js';

/** The whole Config fits; tests give only what they use. */
export type RemoteEmbedderConfig = Partial<
  Pick<
    Config,
    | 'OPENAI_API_KEY'
    | 'OPENAI_BASE_URL'
    | 'GEMINI_API_KEY'
    | 'GEMINI_BASE_URL'
    | 'CLOUDFLARE_ACCOUNT_ID'
    | 'CLOUDFLARE_API_TOKEN'
    | 'WORKERS_AI_BASE_URL'
  >
> &
  Pick<Config, 'LLM_TIMEOUT_MS'> & {
    /** The provider's embedding model; unset: text-embedding-3-small, gemini-embedding-001, @cf/baai/bge-base-en-v1.5. */
    EMBEDDINGS_MODEL?: string | undefined;
  };

/** The settings each provider cannot run without. */
const REQUIRED_CREDENTIALS: Record<RemoteEmbeddingProvider, (keyof RemoteEmbedderConfig)[]> = {
  openai: ['OPENAI_API_KEY'],
  gemini: ['GEMINI_API_KEY'],
  'workers-ai': ['CLOUDFLARE_ACCOUNT_ID', 'CLOUDFLARE_API_TOKEN'],
};

/** The settings `provider` needs that `config` lacks (empty when it can run). */
export function missingEmbedderCredentials(provider: RemoteEmbeddingProvider, config: RemoteEmbedderConfig): string[] {
  return REQUIRED_CREDENTIALS[provider].filter((name) => !config[name]);
}

/**
 * One HTTP request per batch, one try each (the embeddings queue retries EmbeddingProviderError with `retryable`).
 * Throws when the provider's credentials are missing: check missingEmbedderCredentials first to fall back.
 */
export function createRemoteEmbedder(
  provider: RemoteEmbeddingProvider,
  config: RemoteEmbedderConfig,
  { dimensions }: { dimensions?: number } = {},
): Embedder {
  const missing = missingEmbedderCredentials(provider, config);
  if (missing.length > 0) throw new Error(`EMBEDDINGS_PROVIDER=${provider} needs ${missing.join(', ')}`);
  const common = { model: config.EMBEDDINGS_MODEL, timeoutMs: config.LLM_TIMEOUT_MS, dimensions };
  switch (provider) {
    case 'openai':
      return new OpenAIEmbedder({ ...common, apiKey: config.OPENAI_API_KEY!, baseURL: config.OPENAI_BASE_URL });
    case 'gemini':
      return new GeminiEmbedder({ ...common, apiKey: config.GEMINI_API_KEY!, baseURL: config.GEMINI_BASE_URL });
    case 'workers-ai':
      return new WorkersAiEmbedder({
        ...common,
        accountId: config.CLOUDFLARE_ACCOUNT_ID!,
        apiToken: config.CLOUDFLARE_API_TOKEN!,
        baseURL: config.WORKERS_AI_BASE_URL,
      });
  }
}

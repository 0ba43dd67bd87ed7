// Picks the embedder from the configuration; the local one whenever the chosen provider cannot run.
import type { Config } from '../../config.js';
import type { Embedder } from './embedder.js';
import { LocalEmbedder } from './local-embedder.js';
import { createRemoteEmbedder, missingEmbedderCredentials, type RemoteEmbedderConfig } from './remote-embedders.js';

export type EmbedderConfig = Pick<Config, 'EMBEDDINGS_PROVIDER'> & RemoteEmbedderConfig;

export interface CreateEmbedderOptions {
  /** Told why the configured provider was replaced by the local embedder (the composition root logs it). */
  onFallback?: (reason: string) => void;
}

export function createEmbedder(config: EmbedderConfig, { onFallback }: CreateEmbedderOptions = {}): Embedder {
  const provider = config.EMBEDDINGS_PROVIDER;
  if (provider === 'local') return new LocalEmbedder();
  const missing = missingEmbedderCredentials(provider, config);
  if (missing.length > 0) {
    onFallback?.(`EMBEDDINGS_PROVIDER=${provider} needs ${missing.join(', ')}; using the local embedder`);
    return new LocalEmbedder();
  }
  return createRemoteEmbedder(provider, config);
}

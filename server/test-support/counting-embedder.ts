// Wraps a real embedder and records every text it embeds (tests count how often an item's content was embedded).
import type { Embedder } from '../src/retrieval/embeddings/embedder.js';

export function countingEmbedder(real: Embedder, texts: string[]): Embedder {
  return {
    model: real.model,
    dims: real.dims,
    async embed(batch) {
      texts.push(...batch);
      return real.embed(batch);
    },
  };
}

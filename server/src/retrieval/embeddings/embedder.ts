// What every embedder offers: texts in, unit-length vectors out, under a model name that is stored with
// each vector (a different name means the site must be re-embedded).

export interface Embedder {
  /** The model's stored name, e.g. `local-hash-v1`, `text-embedding-3-small`, `@cf/baai/bge-base-en-v1.5`. */
  readonly model: string;
  /** The length of every vector this embedder returns. */
  readonly dims: number;
  /** One L2-normalised vector per text, in order. Rejects with EmbeddingProviderError when a remote provider fails. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** A remote embedding provider failed; `retryable` says whether trying again later can help (429, 5xx, network). */
export class EmbeddingProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'EmbeddingProviderError';
  }
}

/** Scales a vector to unit length in place (a zero vector stays zero) and returns it. */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let index = 0; index < vector.length; index++) vector[index] = (vector[index] as number) / norm;
  return vector;
}

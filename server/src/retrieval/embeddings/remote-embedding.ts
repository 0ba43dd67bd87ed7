// What the remote embedders share: batching, blank texts, checking and normalising the vectors, and turning
// failures into EmbeddingProviderError with words safe to log (never a key).
import { redactSecrets } from '../../llm/model-call-error.js';
import { EmbeddingProviderError, normalize } from './embedder.js';

export type RemoteEmbeddingProvider = 'openai' | 'gemini' | 'workers-ai';

/** One try of one request; the embeddings queue owns retrying (with backoff) on retryable errors. */
export const DEFAULT_EMBEDDING_TIMEOUT_MS = 30_000;

/**
 * Embeds `texts` in batches of at most `batchSize` with `embedBatch`, which returns one raw vector per text it was
 * given. Blank texts are not sent (the services refuse empty input): they get a zero vector.
 */
export async function embedInBatches(
  texts: readonly string[],
  {
    provider,
    dims,
    batchSize,
    embedBatch,
  }: {
    provider: RemoteEmbeddingProvider;
    dims: number;
    batchSize: number;
    embedBatch: (batch: string[]) => Promise<readonly unknown[]>;
  },
): Promise<Float32Array[]> {
  const vectors: Float32Array[] = texts.map(() => new Float32Array(dims));
  const sent = texts.flatMap((text, index) => (text.trim() === '' ? [] : [index]));
  for (let start = 0; start < sent.length; start += batchSize) {
    const indexes = sent.slice(start, start + batchSize);
    const raw = await embedBatch(indexes.map((index) => texts[index] as string));
    if (raw.length !== indexes.length)
      throw new EmbeddingProviderError(`${provider} returned ${raw.length} embeddings for ${indexes.length} texts`, false);
    for (const [position, index] of indexes.entries()) vectors[index] = toUnitVector(provider, raw[position], dims);
  }
  return vectors;
}

function toUnitVector(provider: RemoteEmbeddingProvider, raw: unknown, dims: number): Float32Array {
  if (!Array.isArray(raw) || raw.length !== dims || !raw.every((value) => typeof value === 'number' && Number.isFinite(value)))
    throw new EmbeddingProviderError(
      `${provider} returned an embedding that is not ${dims} finite numbers (got ${Array.isArray(raw) ? raw.length : typeof raw})`,
      false,
    );
  return normalize(Float32Array.from(raw as number[]));
}

/** 429 and 5xx may pass on their own; any other 4xx (bad key, unknown model, bad input) will not. */
export function statusError(
  provider: RemoteEmbeddingProvider,
  status: number,
  body: string,
  secrets: readonly (string | undefined)[],
): EmbeddingProviderError {
  const retryable = status === 429 || status >= 500;
  const detail = redactSecrets(body, secrets);
  return new EmbeddingProviderError(`${provider} embeddings answered ${status}${detail ? `: ${detail}` : ''}`, retryable, status);
}

/** No answer (refused connection, unknown host, timeout): retryable. */
export function unreachableError(provider: RemoteEmbeddingProvider, error: unknown, secrets: readonly (string | undefined)[]) {
  const name = error instanceof Error ? error.name : '';
  if (name === 'AbortError' || name === 'TimeoutError')
    return new EmbeddingProviderError(`${provider} embeddings did not answer in time`, true);
  const message = redactSecrets(error instanceof Error ? error.message : String(error), secrets);
  return new EmbeddingProviderError(`${provider} embeddings are unreachable: ${message}`, true);
}

/** An answer that cannot be read: asking again will not change it. */
export function malformedError(provider: RemoteEmbeddingProvider, error: unknown, secrets: readonly (string | undefined)[]) {
  const message = redactSecrets(error instanceof Error ? error.message : String(error), secrets);
  return new EmbeddingProviderError(`${provider} embeddings failed: ${message}`, false);
}

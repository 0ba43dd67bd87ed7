// Runs one `embeddings` job. A provider's 429 pauses the whole queue for a while (the job is retried, no attempt
// spent); other transient failures retry with backoff; a job that can never succeed fails without retries.
import { EmbeddingJob } from '@lumibase/shared';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Logger } from '../../logger.js';
import type { EmbeddingIndexer, IndexOutcome } from './embedding-indexer.js';
import { EmbeddingProviderError } from './embedder.js';

/** How long the queue pauses after a provider said "too many requests". */
export const RATE_LIMITED_PAUSE_MS = 5000;

export interface EmbeddingsProcessorOptions {
  indexer: Pick<EmbeddingIndexer, 'run'>;
  logger: Logger;
  /** How long a 429 pauses the queue (default RATE_LIMITED_PAUSE_MS). */
  rateLimitedPauseMs?: number;
}

export function createEmbeddingsProcessor({ indexer, logger, rateLimitedPauseMs = RATE_LIMITED_PAUSE_MS }: EmbeddingsProcessorOptions) {
  // `worker` is the queue's own (Worker.rateLimit pauses the whole queue).
  return async (job: Job, worker: Pick<Worker, 'rateLimit'>): Promise<IndexOutcome> => {
    const parsed = EmbeddingJob.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`malformed embeddings job ${job.id}`);
    try {
      const outcome = await indexer.run(parsed.data);
      if (outcome.embedded > 0 || outcome.removed > 0) logger.debug({ jobId: job.id, ...parsed.data, ...outcome }, 'embeddings job done');
      return outcome;
    } catch (error) {
      if (error instanceof EmbeddingProviderError) {
        if (error.status === 429) {
          logger.warn({ jobId: job.id, reason: error.message }, 'embedding provider rate-limited us; pausing the queue');
          await worker.rateLimit(rateLimitedPauseMs);
          throw Worker.RateLimitError();
        }
        if (!error.retryable) throw new UnrecoverableError(error.message);
      }
      throw error;
    }
  };
}

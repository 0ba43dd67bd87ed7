// Queues embeddings jobs (for the outbox's embeddings subscriber and search's re-queueing). When Redis cannot
// take a job, it waits in the MongoDB backlog instead.
import type { EmbeddingJob } from '@lumibase/shared';
import type { Logger } from '../../logger.js';
import type { EmbeddingBacklog } from '../../store/ai/embedding-backlog.store.js';
import type { EmbeddingsQueue } from './embeddings.queue.js';

export interface EmbeddingsEnqueuer {
  /** Queues the job, or records it in the backlog when Redis cannot take it; rejects only if both fail. */
  enqueue(job: EmbeddingJob): Promise<void>;
}

export function createEmbeddingsEnqueuer({
  queue,
  backlog,
  logger,
}: {
  queue: EmbeddingsQueue;
  backlog: EmbeddingBacklog;
  logger: Logger;
}): EmbeddingsEnqueuer {
  async function enqueue(job: EmbeddingJob): Promise<void> {
    try {
      await queue.add(job);
    } catch (error) {
      logger.warn({ reason: (error as Error).message, job }, 'embeddings job kept in the backlog until Redis is back');
      await backlog.record(job);
    }
  }
  return { enqueue };
}

// The `embeddings` BullMQ queue as producers use it: one job per changed target, deduplicated so a burst of
// changes embeds only the latest content, retried with exponential backoff (a job is never dropped).
// Name, job options and connection settings come from the queue table.
import { type EmbeddingJob, embeddingJobKey } from '@lumibase/shared';
import { Queue } from 'bullmq';
import type { Logger } from '../../logger.js';
import { closeProducer, openProducerConnection, QUEUES } from '../../infrastructure/queue-table.js';

const SPEC = QUEUES.embeddings;

export interface EmbeddingsQueue {
  /**
   * Queues the job unless one for the same target is waiting already (that one reads the latest content);
   * while one is running, the newest is kept to run after it. Rejects at once when Redis cannot take it.
   */
  add(job: EmbeddingJob): Promise<void>;
  close(): Promise<void>;
}

export function createEmbeddingsQueue({
  redisUrl,
  prefix,
  logger,
  debounceMs,
}: {
  redisUrl: string;
  prefix: string;
  logger: Logger;
  /** How long a new job waits before it runs, so changes in quick succession share one embedding. */
  debounceMs: number;
}): EmbeddingsQueue {
  // Fail fast while Redis is down: the caller records the job durably instead (embedding-backlog.ts).
  const producer = openProducerConnection(redisUrl, logger, 'embeddings queue');
  const queue = new Queue<EmbeddingJob>(SPEC.name, { connection: producer.connection, prefix });
  queue.on('error', (error: Error) => logger.warn({ reason: error.message }, 'embeddings queue error'));
  return {
    async add(job) {
      // Just started: the first jobs wait a moment for the first connection rather than going to the backlog.
      // Once it has been up (or failed), a job never waits for Redis: an item write must not.
      await producer.ready();
      await queue.add(job.kind, job, {
        ...SPEC.jobOptions,
        ...(debounceMs > 0 ? { delay: debounceMs } : {}),
        deduplication: { id: embeddingJobKey(job), keepLastIfActive: true },
      });
    },
    close: () => closeProducer(producer.connection, () => queue.close()),
  };
}

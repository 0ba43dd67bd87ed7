// The `embeddings` BullMQ queue as producers use it: one job per changed target, deduplicated so a burst of
// changes embeds only the latest content, retried with exponential backoff (a job is never dropped).
import { EMBEDDINGS_QUEUE, type EmbeddingJob, embeddingJobKey } from '@lumibase/shared';
import { type JobsOptions, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '../logger.js';

/**
 * Many tries, backing off up to about an hour: a provider outage delays embeddings, it never loses them
 * (and a job that still fails stays in the failed set; the site's pending count shows it and search re-queues it).
 */
export const EMBEDDING_JOB_OPTIONS: JobsOptions = {
  attempts: 15,
  backoff: { type: 'exponential', delay: 1000, jitter: 0.3 },
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/** How long the first jobs wait for a connection that is still being made. */
const READY_WAIT_MS = 2000;

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
  const connection = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  connection.on('error', (error: Error) => logger.warn({ reason: error.message }, 'embeddings queue redis connection error'));
  const queue = new Queue<EmbeddingJob>(EMBEDDINGS_QUEUE, { connection, prefix });
  queue.on('error', (error: Error) => logger.warn({ reason: error.message }, 'embeddings queue error'));
  return {
    async add(job) {
      if (connection.status === 'connecting' || connection.status === 'connect' || connection.status === 'wait') {
        // Just started: give the first connection a moment rather than failing the first jobs.
        await new Promise<void>((ready) => {
          const timer = setTimeout(ready, READY_WAIT_MS);
          connection.once('ready', () => {
            clearTimeout(timer);
            ready();
          });
        });
      }
      if (connection.status !== 'ready') throw new Error(`Redis is not ready (${connection.status})`);
      await queue.add(job.kind, job, {
        ...EMBEDDING_JOB_OPTIONS,
        ...(debounceMs > 0 ? { delay: debounceMs } : {}),
        deduplication: { id: embeddingJobKey(job), keepLastIfActive: true },
      });
    },
    async close() {
      if (connection.status !== 'ready') {
        connection.disconnect();
        await Promise.race([queue.close(), new Promise((done) => setTimeout(done, 1000))]);
        return;
      }
      await Promise.race([queue.close(), new Promise((done) => setTimeout(done, 1000))]);
      connection.disconnect();
    },
  };
}

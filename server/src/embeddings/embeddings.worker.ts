// The BullMQ worker of the `embeddings` queue: the worker process runs it, and so does the test server, in-process.
// Name, worker options and connection settings come from the queue table.
import { Worker } from 'bullmq';
import type { Logger } from '../logger.js';
import { openWorkerConnection, QUEUES, WORKER_STOP_BOUND_MS } from '../queues/queue-table.js';
import type { EmbeddingIndexer } from './embedding-indexer.js';
import { createEmbeddingsProcessor } from './embeddings.processor.js';

export interface EmbeddingsWorkerOptions {
  redisUrl: string;
  prefix: string;
  indexer: Pick<EmbeddingIndexer, 'run'>;
  logger: Logger;
  concurrency: number;
  /** Jobs per minute at most (a provider's rate limit); 0: unlimited. */
  ratePerMinute: number;
  /** How long a provider's 429 pauses the queue (default 5 s). */
  rateLimitedPauseMs?: number;
}

export function createEmbeddingsWorker({
  redisUrl,
  prefix,
  indexer,
  logger,
  concurrency,
  ratePerMinute,
  rateLimitedPauseMs,
}: EmbeddingsWorkerOptions) {
  const connection = openWorkerConnection(redisUrl, logger, 'embeddings worker');
  let worker: Worker | undefined;
  const processor = createEmbeddingsProcessor({
    indexer,
    logger,
    pause: (ms) => (worker ? worker.rateLimit(ms) : Promise.resolve()),
    ...(rateLimitedPauseMs !== undefined ? { rateLimitedPauseMs } : {}),
  });
  worker = new Worker(QUEUES.embeddings.name, processor, {
    connection,
    prefix,
    ...QUEUES.embeddings.worker({ concurrency, ratePerMinute }),
  });
  worker.on('error', (error: Error) => logger.warn({ reason: error.message }, 'embeddings worker error'));
  worker.on('failed', (job, error) =>
    logger.warn({ jobId: job?.id, reason: error.message, attemptsMade: job?.attemptsMade }, 'embeddings job failed'),
  );
  const running = worker;
  return {
    worker: running,
    async close() {
      await Promise.race([running.close(), new Promise((done) => setTimeout(done, WORKER_STOP_BOUND_MS))]);
      connection.disconnect();
    },
  };
}

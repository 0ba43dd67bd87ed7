// The BullMQ worker of the `embeddings` queue: the worker process runs it, and so does the test server, in-process.
import { EMBEDDINGS_QUEUE } from '@lumibase/shared';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import type { EmbeddingIndexer } from './embedding-indexer.js';
import { createEmbeddingsProcessor } from './embeddings.processor.js';

const STOP_BOUND_MS = 10_000;

export interface EmbeddingsWorkerOptions {
  redisUrl: string;
  prefix: string;
  indexer: Pick<EmbeddingIndexer, 'run'>;
  logger: Logger;
  concurrency: number;
  /** Jobs per minute at most (a provider's rate limit); 0: unlimited. */
  ratePerMinute: number;
}

export function createEmbeddingsWorker({ redisUrl, prefix, indexer, logger, concurrency, ratePerMinute }: EmbeddingsWorkerOptions) {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', (error: Error) => logger.warn({ reason: error.message }, 'embeddings worker redis connection error'));
  let worker: Worker | undefined;
  const processor = createEmbeddingsProcessor({ indexer, logger, pause: (ms) => (worker ? worker.rateLimit(ms) : Promise.resolve()) });
  worker = new Worker(EMBEDDINGS_QUEUE, processor, {
    connection,
    prefix,
    concurrency,
    ...(ratePerMinute > 0 ? { limiter: { max: ratePerMinute, duration: 60_000 } } : {}),
  });
  worker.on('error', (error: Error) => logger.warn({ reason: error.message }, 'embeddings worker error'));
  worker.on('failed', (job, error) =>
    logger.warn({ jobId: job?.id, reason: error.message, attemptsMade: job?.attemptsMade }, 'embeddings job failed'),
  );
  const running = worker;
  return {
    worker: running,
    async close() {
      await Promise.race([running.close(), new Promise((done) => setTimeout(done, STOP_BOUND_MS))]);
      connection.disconnect();
    },
  };
}

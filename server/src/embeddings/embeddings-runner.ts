// What a process that embeds runs: the `embeddings` worker and the drain of the backlog that Redis outages leave
// in MongoDB. The worker process starts it; so does the test server, in-process.
import type { Config } from '../config.js';
import { PeriodicTask } from '../infrastructure/periodic-task.js';
import type { Logger } from '../logger.js';
import type { Embeddings } from './embeddings-domain.js';
import { createEmbeddingsWorker } from './embeddings.worker.js';

/** How often the backlog is looked at. */
const DRAIN_INTERVAL_MS = 5000;

export interface EmbeddingsRunner {
  worker: ReturnType<typeof createEmbeddingsWorker>['worker'];
  /** Queues what waits in the backlog now (also runs every few seconds). */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

export function startEmbeddingsRunner({
  config,
  redisUrl,
  embeddings,
  logger,
}: {
  config: Pick<Config, 'QUEUE_PREFIX' | 'WORKER_CONCURRENCY' | 'EMBEDDINGS_RATE_LIMIT_PER_MINUTE'>;
  redisUrl: string;
  embeddings: Pick<Embeddings, 'indexer' | 'backlog' | 'queue'>;
  logger: Logger;
}): EmbeddingsRunner {
  const running = createEmbeddingsWorker({
    redisUrl,
    prefix: config.QUEUE_PREFIX,
    indexer: embeddings.indexer,
    logger,
    concurrency: config.WORKER_CONCURRENCY,
    ratePerMinute: config.EMBEDDINGS_RATE_LIMIT_PER_MINUTE,
  });
  const drain = async () => {
    const drained = await embeddings.backlog.drain((job) => embeddings.queue.add(job));
    if (drained > 0) logger.info({ drained }, 'queued embeddings jobs from the backlog');
    return drained;
  };
  const task = new PeriodicTask(drain, (error: unknown) =>
    logger.warn({ reason: (error as Error).message }, 'embeddings backlog not drained; retrying later'),
  );
  task.start(DRAIN_INTERVAL_MS);
  return {
    worker: running.worker,
    drain,
    async stop() {
      await task.stop();
      await running.close();
    },
  };
}

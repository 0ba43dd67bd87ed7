// The drain of the embeddings backlog that Redis outages leave in MongoDB: every few seconds, what waits there is
// queued again. A process that runs the embeddings worker runs it too.
import { PeriodicTask } from '../../infrastructure/periodic-task.js';
import type { Logger } from '../../logger.js';
import type { EmbeddingBacklog } from '../../store/ai/embedding-backlog.store.js';
import type { EmbeddingsQueue } from './embeddings.queue.js';

/** How often the backlog is looked at. */
const DRAIN_INTERVAL_MS = 5000;

export function createBacklogDrain({
  embeddings,
  logger,
}: {
  embeddings: { backlog: EmbeddingBacklog; queue: EmbeddingsQueue };
  logger: Logger;
}) {
  const drain = async () => {
    const drained = await embeddings.backlog.drain((job) => embeddings.queue.add(job));
    if (drained > 0) logger.info({ drained }, 'queued embeddings jobs from the backlog');
    return drained;
  };
  const task = new PeriodicTask(drain, (error: unknown) =>
    logger.warn({ reason: (error as Error).message }, 'embeddings backlog not drained; retrying later'),
  );
  return {
    /** Queues what waits in the backlog now (also runs every few seconds once started). */
    drain,
    start: () => task.start(DRAIN_INTERVAL_MS),
    stop: () => task.stop(),
  };
}

// Turns content changes into embeddings jobs. The outbox relay calls it with every site event it appends, before
// the event is cleared from its document: a crash in between leaves the event owed and the relay retries, so a
// write never goes unembedded. When Redis cannot take a job, it waits in the MongoDB backlog instead.
import type { EmbeddingJob, SiteEvent } from '@lumibase/shared';
import type { Logger } from '../logger.js';
import type { EmbeddingBacklog } from '../store/ai/embedding-backlog.store.js';
import type { EmbeddingsQueue } from './embeddings.queue.js';

/** The jobs one site event calls for: an item change re-embeds the item; a schema change or a trash restore, the collection. */
export function embeddingJobsFor(event: SiteEvent): EmbeddingJob[] {
  if (event.name !== 'content-changed') return [];
  const { siteId, kind, collection, id } = event.payload;
  if (kind === 'item') return id === undefined ? [] : [{ kind: 'item', siteId, collection, itemId: id }];
  return [{ kind: 'collection', siteId, collection }];
}

export interface EmbeddingsEnqueuer {
  /** Queues the job, or records it in the backlog when Redis cannot take it; rejects only if both fail. */
  enqueue(job: EmbeddingJob): Promise<void>;
  /** The relay's hook: the jobs `event` calls for. */
  onEvent(event: SiteEvent): Promise<void>;
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
  return {
    enqueue,
    async onEvent(event) {
      for (const job of embeddingJobsFor(event)) await enqueue(job);
    },
  };
}

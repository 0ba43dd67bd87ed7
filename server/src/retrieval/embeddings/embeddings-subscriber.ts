// The outbox's embeddings subscriber: turns content changes into embeddings jobs. The outbox relay calls it with
// every site event it appends, before the event is cleared from its document: a crash in between leaves the event
// owed and the relay retries, so a write never goes unembedded (never failing for want of Redis: the backlog).
import type { EmbeddingJob, SiteEvent } from '@lumibase/shared';
import type { OutboxSubscriber } from '../../store/outbox-subscriber.js';
import type { EmbeddingsEnqueuer } from './embeddings-dispatcher.js';

/** The jobs one site event calls for: an item change re-embeds the item; a schema change or a trash restore, the collection. */
export function embeddingJobsFor(event: SiteEvent): EmbeddingJob[] {
  if (event.name !== 'content-changed') return [];
  const { siteId, kind, collection, id } = event.payload;
  if (kind === 'item') return id === undefined ? [] : [{ kind: 'item', siteId, collection, itemId: id }];
  return [{ kind: 'collection', siteId, collection }];
}

export function createEmbeddingsSubscriber(enqueuer: Pick<EmbeddingsEnqueuer, 'enqueue'>): OutboxSubscriber {
  return {
    name: 'embeddings',
    async onAppended(event) {
      for (const job of embeddingJobsFor(event)) await enqueuer.enqueue(job);
    },
  };
}

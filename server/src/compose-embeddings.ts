// The embeddings pieces every process shares, built in two steps because the outbox relay needs the enqueuer
// before the stores exist: `openEmbeddingsQueueing` (queue, backlog, enqueuer), then `composeEmbeddings`.
import type { Connection } from 'mongoose';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { ExactVectorSearch } from './retrieval/search/exact-vector-search.js';
import { MongoVectorSearch } from './retrieval/search/mongodb-vector-search.js';
import { SearchService } from './retrieval/search/search.service.js';
import { SiteVectorCache } from './retrieval/search/site-vector-cache.js';
import type { VectorSearch } from './retrieval/search/vector-search.js';
import { EmbeddingBacklog } from './store/ai/embedding-backlog.store.js';
import { createEmbeddingModels } from './store/ai/embedding.model.js';
import { EmbeddingSourceStore } from './store/ai/embedding-source.store.js';
import { EmbeddingStore } from './store/ai/embedding.store.js';
import type { EventLog } from './store/event-log.js';
import type { Stores } from './store/stores.js';
import { createEmbedder } from './retrieval/embeddings/create-embedder.js';
import type { Embedder } from './retrieval/embeddings/embedder.js';
import { EmbeddingIndexer } from './retrieval/embeddings/embedding-indexer.js';
import { createEmbeddingsEnqueuer } from './retrieval/embeddings/embeddings-dispatcher.js';
import { createEmbeddingsQueue } from './retrieval/embeddings/embeddings.queue.js';

export type EmbeddingsConfig = Pick<Config, 'QUEUE_PREFIX' | 'EMBEDDINGS_DEBOUNCE_MS' | 'VECTOR_SEARCH'> &
  Parameters<typeof createEmbedder>[0];

export async function openEmbeddingsQueueing({
  config,
  mongo,
  redisUrl,
  logger,
}: {
  config: Pick<Config, 'QUEUE_PREFIX' | 'EMBEDDINGS_DEBOUNCE_MS'>;
  mongo: Connection;
  redisUrl: string;
  logger: Logger;
}) {
  const queue = createEmbeddingsQueue({ redisUrl, prefix: config.QUEUE_PREFIX, logger, debounceMs: config.EMBEDDINGS_DEBOUNCE_MS });
  const backlog = await EmbeddingBacklog.open(mongo);
  const enqueuer = createEmbeddingsEnqueuer({ queue, backlog, logger });
  return { queue, backlog, enqueuer };
}

export type EmbeddingsQueueing = Awaited<ReturnType<typeof openEmbeddingsQueueing>>;

export async function composeEmbeddings({
  config,
  mongo,
  stores,
  eventLog,
  queueing,
  logger,
  embedder: given,
}: {
  config: EmbeddingsConfig;
  mongo: Connection;
  stores: Stores;
  /** The site event log: its seq tells the search when the pending count must be taken again. */
  eventLog: EventLog;
  queueing: EmbeddingsQueueing;
  logger: Logger;
  /** Unset, the one the configuration picks. */
  embedder?: Embedder;
}) {
  const embedder = given ?? createEmbedder(config, { onFallback: (reason) => logger.warn(reason) });
  const models = await createEmbeddingModels(mongo);
  const embeddings = (siteId: string) => new EmbeddingStore(models, siteId);
  const sources = (siteId: string) => new EmbeddingSourceStore(stores.models, siteId);
  const vectors: VectorSearch =
    config.VECTOR_SEARCH === 'mongodb' ? new MongoVectorSearch(models) : new ExactVectorSearch(new SiteVectorCache(embeddings));
  const indexer = new EmbeddingIndexer({ stores, embeddings, embedder, logger });
  const search = new SearchService({
    stores,
    sources,
    embeddings,
    embedder,
    vectors,
    enqueuer: queueing.enqueuer,
    contentVersion: (siteId) => eventLog.forSite(siteId).currentSeq(),
    logger,
  });
  return { ...queueing, models, embedder, embeddings, sources, indexer, search };
}

export type Embeddings = Awaited<ReturnType<typeof composeEmbeddings>>;

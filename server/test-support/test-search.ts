// Search over the test stores without Redis: the real indexer, vectors, cache and search service; jobs the search
// asks for (a site left behind) are recorded in the real MongoDB backlog, and tests run the indexer themselves.
import type { Connection } from 'mongoose';
import type { Embedder } from '../src/retrieval/embeddings/embedder.js';
import { EmbeddingIndexer } from '../src/retrieval/embeddings/embedding-indexer.js';
import { LocalEmbedder } from '../src/retrieval/embeddings/local-embedder.js';
import { createLogger } from '../src/logger.js';
import { ExactVectorSearch } from '../src/retrieval/search/exact-vector-search.js';
import { SearchService } from '../src/retrieval/search/search.service.js';
import { SiteVectorCache } from '../src/retrieval/search/site-vector-cache.js';
import { EmbeddingBacklog } from '../src/store/ai/embedding-backlog.store.js';
import { createEmbeddingModels, type EmbeddingModels } from '../src/store/ai/embedding.model.js';
import { EmbeddingSourceStore } from '../src/store/ai/embedding-source.store.js';
import { EmbeddingStore } from '../src/store/ai/embedding.store.js';
import { createEventLog } from '../src/store/event-log.js';
import type { Stores } from '../src/store/stores.js';

export interface TestSearch {
  models: EmbeddingModels;
  backlog: EmbeddingBacklog;
  indexer: EmbeddingIndexer;
  search: SearchService;
  embedder: Embedder;
  embeddings: (siteId: string) => EmbeddingStore;
}

export async function createTestSearch(
  connection: Connection,
  stores: Stores,
  { embedder = new LocalEmbedder(), clock }: { embedder?: Embedder; clock?: () => Date } = {},
): Promise<TestSearch> {
  const logger = createLogger({ level: 'silent' });
  const models = await createEmbeddingModels(connection);
  const backlog = await EmbeddingBacklog.open(connection);
  const eventLog = await createEventLog(connection);
  const embeddings = (siteId: string) => new EmbeddingStore(models, siteId);
  const indexer = new EmbeddingIndexer({ stores, embeddings, embedder, logger });
  const search = new SearchService({
    stores,
    sources: (siteId) => new EmbeddingSourceStore(stores.models, siteId),
    embeddings,
    embedder,
    vectors: new ExactVectorSearch(new SiteVectorCache(embeddings)),
    enqueuer: { enqueue: (job) => backlog.record(job) },
    contentVersion: (siteId) => eventLog.forSite(siteId).currentSeq(),
    logger,
    ...(clock ? { clock } : {}),
  });
  return { models, backlog, indexer, search, embedder, embeddings };
}

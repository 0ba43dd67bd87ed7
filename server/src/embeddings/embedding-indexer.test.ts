// The embeddings indexer over the wire: what walking a collection costs in MongoDB round trips.
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { CollectionsService } from '../services/collections.service.js';
import { ItemsService } from '../services/items.service.js';
import { createEmbeddingModels } from '../store/ai/embedding.model.js';
import { EmbeddingStore } from '../store/ai/embedding.store.js';
import { createTestStores } from '../testing/test-stores.js';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { openWatchedConnection, type WatchedConnection } from '../testing/watched-connection.js';
import { WordEmbedder } from '../testing/word-embedder.js';
import { EmbeddingIndexer } from './embedding-indexer.js';

let database: TestDatabase;
let watched: WatchedConnection;
let indexer: EmbeddingIndexer;
let services: { collections: CollectionsService; items: ItemsService };
let relayed: () => Promise<void>;

beforeAll(async () => {
  database = await openTestDatabase('embedding_indexer');
  watched = await openWatchedConnection(database);
  const { stores } = await createTestStores(watched.connection);
  relayed = () => stores.relay.idle();
  const models = await createEmbeddingModels(watched.connection);
  const embeddings = (siteId: string) => new EmbeddingStore(models, siteId);
  indexer = new EmbeddingIndexer({
    stores,
    embeddings,
    embedder: new WordEmbedder({ dims: 16 }),
    logger: createLogger({ level: 'silent' }),
  });
  services = { collections: new CollectionsService(stores), items: new ItemsService(stores) };
});
afterAll(async () => {
  await watched?.close();
  await database?.close();
});

describe('EmbeddingIndexer.indexCollection', () => {
  it('embeds the schema and every item, reading the items without counting them', async () => {
    const siteId = new Types.ObjectId().toHexString();
    await services.collections.create(siteId, { name: 'notes', fields: [{ name: 'title', type: 'string', required: true }] });
    await services.items.create(siteId, 'notes', { title: 'first' });
    await services.items.create(siteId, 'notes', { title: 'second' });
    // Their events are relayed after the writes answered: not part of what the walk costs.
    await relayed();
    watched.take();
    expect(await indexer.indexCollection(siteId, 'notes')).toEqual({ embedded: 3, removed: 0 });
    const sent = watched.take();
    expect(sent.filter((command) => command.endsWith(' cms_items'))).toEqual(['find cms_items']);
    expect(sent.filter((command) => command.startsWith('aggregate '))).toEqual([]);
  });
});

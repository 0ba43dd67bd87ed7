// The embeddings indexer over the wire: what walking a collection costs in MongoDB round trips.
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import { CollectionsService } from '../../services/collections.service.js';
import { ItemsService } from '../../services/items.service.js';
import { createEmbeddingModels } from '../../store/ai/embedding.model.js';
import { EmbeddingStore } from '../../store/ai/embedding.store.js';
import { createTestStores } from '../../../test-support/test-stores.js';
import { openTestDatabase, type TestDatabase } from '../../../test-support/test-database.js';
import { openWatchedConnection, type WatchedConnection } from '../../../test-support/watched-connection.js';
import { WordEmbedder } from '../../../test-support/word-embedder.js';
import { EmbeddingIndexer } from './embedding-indexer.js';

let database: TestDatabase;
let watched: WatchedConnection;
let indexer: EmbeddingIndexer;
let services: { collections: CollectionsService; items: ItemsService };
let relayed: () => Promise<void>;
let collectionIdOf: (siteId: string, name: string) => Promise<string | undefined>;

beforeAll(async () => {
  database = await openTestDatabase('embedding_indexer');
  watched = await openWatchedConnection(database);
  const { stores } = await createTestStores(watched.connection);
  relayed = () => stores.relay.idle();
  collectionIdOf = async (siteId, name) => (await stores.forSite(siteId).collections.findByName(name))?.id;
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

describe('EmbeddingIndexer.indexCollection of a collection created again under its name', () => {
  it("replaces the old collection's vectors, the schema's too when its text is the same, in one removal", async () => {
    const siteId = new Types.ObjectId().toHexString();
    const vectors = new EmbeddingStore(await createEmbeddingModels(watched.connection), siteId);
    const fields = [{ name: 'title', type: 'string' as const, required: true }];
    await services.collections.create(siteId, { name: 'notes', fields });
    const first = await collectionIdOf(siteId, 'notes');
    const old = await services.items.create(siteId, 'notes', { title: 'old note' });
    await relayed();
    expect(await indexer.indexCollection(siteId, 'notes')).toEqual({ embedded: 2, removed: 0 });

    await services.collections.remove(siteId, 'notes');
    await services.collections.create(siteId, { name: 'notes', fields });
    const again = await collectionIdOf(siteId, 'notes');
    expect(again).not.toBe(first);
    const kept = await services.items.create(siteId, 'notes', { title: 'new note' });
    await relayed();
    watched.take();
    // The same schema text, but another collection: its vector is written for the new one; the old item's goes.
    expect(await indexer.indexCollection(siteId, 'notes')).toEqual({ embedded: 2, removed: 1 });
    const sent = watched.take();
    expect(sent.filter((command) => command === 'delete ai_embeddings')).toHaveLength(1);
    expect(sent.filter((command) => command === 'update ai_embeddings')).toHaveLength(1);
    const stored = await vectors.versionsOf('notes', ['schema:notes', old.id, kept.id], indexer.model);
    expect([...stored.keys()].sort()).toEqual(['schema:notes', kept.id].sort());
    expect([...stored.values()].map((version) => version.collectionId)).toEqual([again, again]);

    // Walked again with nothing changed: no vector written, nothing removed.
    watched.take();
    expect(await indexer.indexCollection(siteId, 'notes')).toEqual({ embedded: 0, removed: 0 });
    expect(watched.take().filter((command) => command === 'update ai_embeddings')).toEqual([]);
  });
});

describe('EmbeddingIndexer writes in batches', () => {
  it('stores the vectors of a walk in one write per embedder batch, and moved-but-unchanged items in one write', async () => {
    const siteId = new Types.ObjectId().toHexString();
    await services.collections.create(siteId, { name: 'posts', fields: [{ name: 'title', type: 'string', required: true }] });
    const created = [];
    for (let start = 0; start < 70; start += 10) {
      created.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, (_, index) => services.items.create(siteId, 'posts', { title: `post ${start + index}` })),
        )),
      );
    }
    await relayed();
    watched.take();
    expect(await indexer.indexCollection(siteId, 'posts')).toEqual({ embedded: 71, removed: 0 });
    const first = watched.take();
    // The schema's vector with the 70 items' in two batches of at most 64: two writes, and the generation moved twice.
    expect(first.filter((command) => command === 'update ai_embeddings')).toHaveLength(2);
    expect(first.filter((command) => command === 'update ai_embedding_generations')).toHaveLength(2);
    const stored = await new EmbeddingStore(await createEmbeddingModels(watched.connection), siteId).versions(indexer.model);
    expect(stored.map((version) => version.itemId).sort()).toEqual(created.map((item) => item.id).sort());

    // Every item saved again with the same text: a new revision each, no new vector, their versions recorded in one write.
    for (const item of created) await services.items.update(siteId, 'posts', item.id, { title: item.data.title });
    await relayed();
    watched.take();
    expect(await indexer.indexCollection(siteId, 'posts')).toEqual({ embedded: 0, removed: 0 });
    expect(watched.take().filter((command) => command === 'update ai_embeddings')).toHaveLength(1);
    const after = await new EmbeddingStore(await createEmbeddingModels(watched.connection), siteId).versions(indexer.model);
    expect(after.every((version) => version.sourceRevision === 2)).toBe(true);
  });
});

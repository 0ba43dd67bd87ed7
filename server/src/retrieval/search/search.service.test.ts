// Search over the wire-server MongoDB with the real indexer, vectors and exact cosine search (no queue here:
// the tests run the indexer themselves): retrieval quality, tenancy, model changes, the pending count, the cache.
import fc from 'fast-check';
import type { CommandStartedEvent } from 'mongodb';
import mongoose, { Types } from 'mongoose';
import { RateLimitedError } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../embeddings/embedder.js';
import { LocalEmbedder } from '../embeddings/local-embedder.js';
import { CollectionsService } from '../../services/collections.service.js';
import { ItemsService } from '../../services/items.service.js';
import type { Stores } from '../../store/stores.js';
import { createTestSearch, type TestSearch } from '../../../test-support/test-search.js';
import { openTestDatabase, type TestDatabase } from '../../../test-support/test-database.js';
import { createTestStores } from '../../../test-support/test-stores.js';
import { PARAPHRASED_CORPUS, TOPIC_CORPUS } from '../../../test-support/topic-corpus.js';
import { vectorSearchPipeline } from './mongodb-vector-search.js';

let database: TestDatabase;
let stores: Stores;
let collections: CollectionsService;
let items: ItemsService;
let search: TestSearch;

const NOTES = { name: 'notes', fields: [{ name: 'text', type: 'text' as const, required: true }] };

beforeAll(async () => {
  database = await openTestDatabase('search_service');
  ({ stores } = await createTestStores(database.connection));
  collections = new CollectionsService(stores);
  items = new ItemsService(stores);
  search = await createTestSearch(database.connection, stores);
}, 60_000);
afterAll(async () => database?.close());

async function siteWith(texts: readonly string[]): Promise<{ siteId: string; ids: string[] }> {
  const siteId = (await stores.sites.create(`Search ${new Types.ObjectId().toString().slice(-6)}`)).id;
  await collections.create(siteId, NOTES);
  const ids: string[] = [];
  for (const text of texts) ids.push((await items.create(siteId, 'notes', { text })).id);
  return { siteId, ids };
}

/** How often each item's top 3 neighbours (by search from its own text) share its topic. */
async function topicAgreement(corpus: Record<string, string[]>): Promise<{ same: number; total: number }> {
  const topics = Object.entries(corpus).flatMap(([topic, texts]) => texts.map((text) => ({ topic, text })));
  const { siteId, ids } = await siteWith(topics.map((entry) => entry.text));
  await search.indexer.indexSite(siteId);
  const topicOf = new Map(ids.map((id, index) => [id, topics[index]!.topic]));
  let same = 0;
  let total = 0;
  for (const [index, id] of ids.entries()) {
    const hits = await search.search.nearest(siteId, topics[index]!.text, { kind: 'item', limit: 4 });
    const neighbours = hits.filter((hit) => hit.itemId !== id).slice(0, 3);
    expect(neighbours).toHaveLength(3);
    for (const neighbour of neighbours) {
      total++;
      if (topicOf.get(neighbour.itemId) === topicOf.get(id)) same++;
    }
  }
  return { same, total };
}

describe('retrieval quality with the local embedder', () => {
  it('puts items of the same topic among each item’s top 3 neighbours at least 90% of the time', async () => {
    const { same, total } = await topicAgreement(TOPIC_CORPUS);
    console.log(
      `retrieval (60 items, 3 topics): top-3 neighbours sharing the topic ${same}/${total} = ${((100 * same) / total).toFixed(1)}%`,
    );
    expect(same / total).toBeGreaterThanOrEqual(0.9);
  });

  it('still mostly finds the topic when the wording varies (a lexical embedder’s limit, reported)', async () => {
    const { same, total } = await topicAgreement(PARAPHRASED_CORPUS);
    console.log(
      `retrieval (paraphrased corpus): top-3 neighbours sharing the topic ${same}/${total} = ${((100 * same) / total).toFixed(1)}%`,
    );
    expect(same / total).toBeGreaterThanOrEqual(0.65);
  });
});

describe('tenancy', () => {
  it('never returns another site’s item, whatever the items and the query (property)', async () => {
    const words = [...TOPIC_CORPUS.baking, ...TOPIC_CORPUS.astronomy].join(' ').split(/\s+/);
    const text = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 8 }).map((parts) => parts.join(' '));
    await fc.assert(
      fc.asyncProperty(
        fc.array(text, { minLength: 1, maxLength: 5 }),
        fc.array(text, { minLength: 1, maxLength: 5 }),
        text,
        async (a, b, query) => {
          const first = await siteWith(a);
          const second = await siteWith(b);
          await search.indexer.indexSite(first.siteId);
          await search.indexer.indexSite(second.siteId);
          for (const [site, own] of [
            [first.siteId, first.ids],
            [second.siteId, second.ids],
          ] as const) {
            const { data } = await search.search.search(site, { query, limit: 50 });
            for (const hit of data) expect(own).toContain(hit.id);
            const nearest = await search.search.nearest(site, query, { kind: 'item', limit: 50 });
            for (const hit of nearest) expect(own).toContain(hit.itemId);
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);

  it('keeps the site in the $vectorSearch filter of every query', () => {
    const siteId = new Types.ObjectId().toString();
    const [stage] = vectorSearchPipeline({ siteId, vector: new Float32Array(4), model: 'm', kind: 'item', limit: 5 });
    expect((stage as { $vectorSearch: { filter: Record<string, unknown> } }).$vectorSearch.filter).toEqual({
      siteId: new Types.ObjectId(siteId),
      model: 'm',
      kind: 'item',
    });
    expect(() => vectorSearchPipeline({ siteId: 'nope', vector: new Float32Array(4), model: 'm', kind: 'item', limit: 5 })).toThrow();
  });
});

describe('the pending count and model changes', () => {
  it('counts items without an up-to-date vector, and a changed model re-embeds the site in the background', async () => {
    const { siteId, ids } = await siteWith(['Comets have tails', 'Bread needs flour', 'Goals win matches']);
    expect((await search.search.pending(siteId)).pending).toBe(3);
    await search.indexer.indexSite(siteId);
    expect((await search.search.pending(siteId)).pending).toBe(0);
    await items.update(siteId, 'notes', ids[0]!, { text: 'Comets have icy tails' });
    expect((await search.search.pending(siteId)).pending).toBe(1);
    await search.indexer.indexItem(siteId, 'notes', ids[0]!);
    expect((await search.search.pending(siteId)).pending).toBe(0);

    // Another model (as after EMBEDDINGS_PROVIDER or EMBEDDINGS_MODEL changed), an hour later.
    const later = new Date(Date.now() + 3_600_000);
    const renamed: Embedder = Object.assign(new LocalEmbedder(512), { model: 'local-hash-v1-512' });
    const changed = await createTestSearch(database.connection, stores, { embedder: renamed, clock: () => later });
    const before = await changed.search.search(siteId, { query: 'comets', limit: 10 });
    expect(before.meta).toEqual({ model: 'local-hash-v1-512', pending: 3 });
    expect(before.data).toEqual([]);
    // Items left behind that long make the search queue the site's re-embedding.
    expect(await search.backlog.count()).toBeGreaterThanOrEqual(1);
    await changed.indexer.run({ kind: 'site', siteId });
    const after = await changed.search.search(siteId, { query: 'comets', limit: 10 });
    expect(after.meta).toEqual({ model: 'local-hash-v1-512', pending: 0 });
    expect(after.data[0]?.id).toBe(ids[0]);
    // The old model's vectors are gone once the site is re-embedded.
    const models = await search.models.embeddings.distinct('model', { siteId: new Types.ObjectId(siteId) });
    expect(models).toEqual(['local-hash-v1-512']);
  });

  it('sees another process’s vector writes at once (the cache follows the site’s generation)', async () => {
    const { siteId, ids } = await siteWith(['Saturn has rings']);
    await search.indexer.indexSite(siteId);
    expect((await search.search.search(siteId, { query: 'saturn rings', limit: 5 })).data.map((hit) => hit.id)).toEqual(ids);
    // A second process: its own connection, indexer and cache.
    const connection = await database.connect();
    const other = await createTestSearch(connection, stores);
    const added = await items.create(siteId, 'notes', { text: 'Saturn rings are ice' });
    await other.indexer.indexItem(siteId, 'notes', added.id);
    const hits = (await search.search.search(siteId, { query: 'saturn rings ice', limit: 5 })).data.map((hit) => hit.id);
    expect(hits[0]).toBe(added.id);
    await items.remove(siteId, 'notes', added.id);
    await other.indexer.indexItem(siteId, 'notes', added.id);
    expect((await search.search.search(siteId, { query: 'saturn rings ice', limit: 5 })).data.map((hit) => hit.id)).toEqual(ids);
  });
});

describe('the round trips of one search', () => {
  it('reads the collections, the event seq and the vectors’ version at once, then the hits’ items: five reads, no more', async () => {
    // Its own connection with command monitoring, over the same database.
    const connection = await mongoose
      .createConnection(database.uri, { dbName: database.connection.name, monitorCommands: true })
      .asPromise();
    try {
      const monitored = await createTestSearch(connection, (await createTestStores(connection)).stores);
      const { siteId, ids } = await siteWith(['Jupiter has storms', 'Mars is red']);
      await search.indexer.indexSite(siteId);
      // The first search loads the vectors and counts the pending items; the next ones find both kept.
      await monitored.search.search(siteId, { query: 'jupiter storms', limit: 5 });
      const reads: string[] = [];
      const record = (event: CommandStartedEvent) => {
        if (['find', 'aggregate', 'count', 'distinct'].includes(event.commandName)) reads.push(String(event.command[event.commandName]));
      };
      connection.getClient().on('commandStarted', record);
      const result = await monitored.search.search(siteId, { query: 'jupiter storms', limit: 5 });
      connection.getClient().off('commandStarted', record);
      expect(result.data[0]?.id).toBe(ids[0]);
      expect(result.meta.pending).toBe(0);
      expect(reads.sort()).toEqual(['ai_embedding_generations', 'cms_collections', 'cms_items', 'site_event_heads', 'site_events']);
    } finally {
      await connection.close();
    }
  });
});

describe('the caller’s admission', () => {
  it('is awaited before the query is embedded: a refused request embeds nothing and answers the refusal', async () => {
    const local = new LocalEmbedder();
    const embedded: string[] = [];
    const counting: Embedder = {
      model: local.model,
      dims: local.dims,
      embed: (texts) => {
        embedded.push(...texts);
        return local.embed(texts);
      },
    };
    const counted = await createTestSearch(database.connection, stores, { embedder: counting });
    const { siteId } = await siteWith(['Venus is hot']);
    const refused = Promise.reject(new RateLimitedError({ retryAfterSeconds: 30 }));
    await expect(counted.search.search(siteId, { query: 'venus', limit: 5, admitted: refused })).rejects.toBeInstanceOf(RateLimitedError);
    expect(embedded).toEqual([]);
    await counted.search.search(siteId, { query: 'venus', limit: 5, admitted: Promise.resolve() });
    expect(embedded).toEqual(['venus']);
  });
});

// What an embeddings job does: reads the target's current content from MongoDB, embeds what changed since its
// stored vector (by content hash), and removes the vectors of whatever no longer exists.
import type { EmbeddingJob } from '@lumibase/shared';
import type { Logger } from '../../logger.js';
import type { CollectionRecord } from '../../store/collection.store.js';
import type { EmbeddingStore, EmbeddingWrite } from '../../store/ai/embedding.store.js';
import { schemaItemId } from '../../store/ai/embedding.store.js';
import type { ItemRecord } from '../../store/item.store.js';
import type { SiteStores } from '../../store/stores.js';
import type { Embedder } from './embedder.js';
import { contentHash, itemText, schemaText } from './embedding-text.js';

/** Texts per embedder call when a whole collection or site is (re-)embedded. */
const BATCH_SIZE = 64;
/** Items read per page while walking a collection. */
const PAGE_SIZE = 500;

export interface EmbeddingIndexerOptions {
  stores: { forSite(siteId: string): Pick<SiteStores, 'collections' | 'items'> };
  embeddings: (siteId: string) => EmbeddingStore;
  embedder: Embedder;
  logger: Logger;
}

export interface IndexOutcome {
  /** Texts sent to the embedder. */
  embedded: number;
  /** Vectors removed. */
  removed: number;
}

interface Pending {
  write: EmbeddingWrite;
  text: string;
}

export class EmbeddingIndexer {
  constructor(private readonly options: EmbeddingIndexerOptions) {}

  get model(): string {
    return this.options.embedder.model;
  }

  async run(job: EmbeddingJob): Promise<IndexOutcome> {
    switch (job.kind) {
      case 'item':
        return this.indexItem(job.siteId, job.collection, job.itemId);
      case 'collection':
        return this.indexCollection(job.siteId, job.collection);
      case 'site':
        return this.indexSite(job.siteId);
    }
  }

  /** One item: embedded if its text changed, its vectors removed if it (or its collection) is gone. */
  async indexItem(siteId: string, collectionName: string, itemId: string): Promise<IndexOutcome> {
    const { collections, items } = this.options.stores.forSite(siteId);
    const vectors = this.options.embeddings(siteId);
    const collection = await collections.findByName(collectionName);
    const item = collection ? await items.findById(collection.id, itemId) : null;
    if (!collection || !item) {
      const removed = await vectors.removeItem(collectionName, itemId);
      return { embedded: 0, removed: removed ? 1 : 0 };
    }
    const pending = await this.changed(vectors, [this.itemTarget(collection, item)]);
    return { embedded: await this.embedAll(vectors, pending), removed: 0 };
  }

  /** A collection's schema and every item of it; everything of that name goes when the collection is gone. */
  async indexCollection(siteId: string, collectionName: string): Promise<IndexOutcome> {
    const { collections } = this.options.stores.forSite(siteId);
    const vectors = this.options.embeddings(siteId);
    const collection = await collections.findByName(collectionName);
    if (!collection) return { embedded: 0, removed: await vectors.removeCollection(collectionName) };
    return this.indexLiveCollection(siteId, collection);
  }

  /** Every collection of the site under the current model, then the vectors nothing stands behind any more. */
  async indexSite(siteId: string): Promise<IndexOutcome> {
    const { collections } = this.options.stores.forSite(siteId);
    const vectors = this.options.embeddings(siteId);
    const outcome: IndexOutcome = { embedded: 0, removed: 0 };
    const live = await collections.listAll();
    for (const collection of live) {
      const { embedded, removed } = await this.indexLiveCollection(siteId, collection);
      outcome.embedded += embedded;
      outcome.removed += removed;
    }
    const names = new Set(live.map((collection) => collection.name));
    for (const name of await vectors.collectionNames()) {
      if (!names.has(name)) outcome.removed += await vectors.removeCollection(name);
    }
    outcome.removed += await vectors.removeOtherModels(this.model);
    this.options.logger.info({ siteId, model: this.model, ...outcome }, 'site embeddings brought up to date');
    return outcome;
  }

  /**
   * The schema with the first page of items (one read of what is stored, one write of what changed), page by page, then
   * one removal of whatever of the name is not this collection's or not one of its items any more (a collection deleted
   * and created again under the name leaves the old one's vectors, which `changed` does not count as this one's).
   */
  private async indexLiveCollection(siteId: string, collection: CollectionRecord): Promise<IndexOutcome> {
    const { items } = this.options.stores.forSite(siteId);
    const vectors = this.options.embeddings(siteId);
    let embedded = 0;
    const keep: string[] = [];
    for (let offset = 0; ; offset += PAGE_SIZE) {
      const records = await items.page(collection.id, { limit: PAGE_SIZE, offset });
      keep.push(...records.map((item) => item.id));
      const targets = records.map((item) => this.itemTarget(collection, item));
      if (offset === 0) targets.unshift(this.schemaTarget(collection));
      embedded += await this.embedAll(vectors, await this.changed(vectors, targets));
      if (records.length < PAGE_SIZE) break;
    }
    return { embedded, removed: await vectors.removeAllBut(collection.name, collection.id, keep) };
  }

  private itemTarget(collection: CollectionRecord, item: ItemRecord): Pending {
    const text = itemText(collection, item.data);
    return {
      text,
      write: {
        kind: 'item',
        collection: collection.name,
        collectionId: collection.id,
        itemId: item.id,
        model: this.model,
        contentHash: contentHash(text),
        sourceRevision: item.revision,
        sourceUpdatedAt: new Date(item.updatedAt),
      },
    };
  }

  private schemaTarget(collection: CollectionRecord): Pending {
    const text = schemaText(collection);
    return {
      text,
      write: {
        kind: 'schema',
        collection: collection.name,
        collectionId: collection.id,
        itemId: schemaItemId(collection.name),
        model: this.model,
        contentHash: contentHash(text),
        sourceRevision: collection.revision,
        sourceUpdatedAt: new Date(collection.updatedAt),
      },
    };
  }

  /** The targets (of one collection) whose text differs from their stored vector's; unchanged ones only get their source version recorded. */
  private async changed(vectors: EmbeddingStore, targets: Pending[]): Promise<Pending[]> {
    const first = targets[0];
    if (!first) return [];
    const stored = await vectors.versionsOf(
      first.write.collection,
      targets.map((target) => target.write.itemId),
      this.model,
    );
    const changed: Pending[] = [];
    const moved: EmbeddingWrite[] = [];
    for (const target of targets) {
      const { itemId, contentHash: hash, sourceRevision, sourceUpdatedAt } = target.write;
      const version = stored.get(itemId);
      // Stored for another collection of the name (deleted and created again): this one's vector is written anew.
      if (version?.contentHash !== hash || version.collectionId !== target.write.collectionId) changed.push(target);
      else if (version.sourceRevision !== sourceRevision || version.sourceUpdatedAt.getTime() !== sourceUpdatedAt.getTime()) {
        moved.push(target.write);
      }
    }
    await vectors.touchMany(moved);
    return changed;
  }

  private async embedAll(vectors: EmbeddingStore, pending: Pending[]): Promise<number> {
    for (let start = 0; start < pending.length; start += BATCH_SIZE) {
      const batch = pending.slice(start, start + BATCH_SIZE);
      const embedded = await this.options.embedder.embed(batch.map((target) => target.text));
      await vectors.upsertMany(batch.map((target, index) => ({ write: target.write, vector: embedded[index] as Float32Array })));
    }
    return pending.length;
  }
}

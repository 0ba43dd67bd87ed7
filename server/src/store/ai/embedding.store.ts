// One site's vectors (site-scoped): upserts that skip unchanged content, removals, and the reads search needs.
import { Binary } from 'mongodb';
import type { Types } from 'mongoose';
import { parseObjectId } from '../object-id.js';
import { SiteScopedStore } from '../site-scoped.js';
import type { EmbeddingDocument, EmbeddingKind, EmbeddingModels } from './embedding.model.js';

export interface StoredVector {
  kind: EmbeddingKind;
  collection: string;
  itemId: string;
  vector: Float32Array;
}

export interface EmbeddingWrite {
  kind: EmbeddingKind;
  collection: string;
  collectionId: string;
  itemId: string;
  model: string;
  contentHash: string;
  sourceRevision: number;
  sourceUpdatedAt: Date;
}

export interface EmbeddingVersion {
  itemId: string;
  contentHash: string;
  sourceRevision: number;
  sourceUpdatedAt: Date;
}

/** The itemId under which a collection's schema is stored. */
export function schemaItemId(collection: string): string {
  return `schema:${collection}`;
}

function toVector(stored: unknown): Float32Array {
  // Duck-typed: the driver's Binary may come from another copy of the bson package.
  if (stored && typeof (stored as Binary).toFloat32Array === 'function') return (stored as Binary).toFloat32Array();
  throw new TypeError('stored embedding is not a BSON vector');
}

export class EmbeddingStore extends SiteScopedStore {
  constructor(
    private readonly models: EmbeddingModels,
    siteId: string,
  ) {
    super(siteId);
  }

  /**
   * What is stored for several targets of one collection name under `model`, by itemId (one query), with the id of the
   * collection each vector was made for (a collection deleted and created again under the name has another).
   */
  async versionsOf(
    collection: string,
    itemIds: readonly string[],
    model: string,
  ): Promise<Map<string, EmbeddingVersion & { collectionId?: string }>> {
    const documents = await this.models.embeddings
      .find(this.scoped({ collection, model, itemId: { $in: [...itemIds] } }), {
        _id: 0,
        itemId: 1,
        collectionId: 1,
        contentHash: 1,
        sourceRevision: 1,
        sourceUpdatedAt: 1,
      })
      .lean<(EmbeddingVersion & { collectionId?: Types.ObjectId })[]>();
    return new Map(
      documents.map(({ collectionId, ...version }) => [
        version.itemId,
        { ...version, ...(collectionId ? { collectionId: collectionId.toHexString() } : {}) },
      ]),
    );
  }

  /** Every item vector's version under `model` (for the pending count and a site's re-embedding). */
  async versions(model: string, kind: EmbeddingKind = 'item'): Promise<(EmbeddingVersion & { collection: string })[]> {
    return this.models.embeddings
      .find(this.scoped({ model, kind }), { _id: 0, collection: 1, itemId: 1, contentHash: 1, sourceRevision: 1, sourceUpdatedAt: 1 })
      .lean<(EmbeddingVersion & { collection: string })[]>();
  }

  /**
   * Stores a batch of vectors in one write (an upsert each, unordered: a failure leaves the others stored, and the
   * job's retry writes them all again), then moves the generation once: a collection re-embedded in batches of 64
   * costs two round trips a batch, not two a vector.
   */
  async upsertMany(entries: readonly { write: EmbeddingWrite; vector: Float32Array }[]): Promise<void> {
    if (entries.length === 0) return;
    await this.models.embeddings.bulkWrite(
      entries.map(({ write, vector }) => {
        const { collection, itemId, model, collectionId, ...rest } = write;
        return {
          updateOne: {
            filter: this.scoped({ collection, itemId, model }),
            update: {
              $set: { ...rest, collectionId: toObjectId(collectionId), dims: vector.length, vector: Binary.fromFloat32Array(vector) },
            },
            upsert: true,
          },
        };
      }),
      { ordered: false },
    );
    await this.bump();
  }

  /**
   * The content did not change (same hash): only the source versions move, the vectors stay; in one write, and the
   * stamp moves once if any source version moved.
   */
  async touchMany(
    writes: readonly Pick<EmbeddingWrite, 'collection' | 'itemId' | 'model' | 'sourceRevision' | 'sourceUpdatedAt'>[],
  ): Promise<void> {
    if (writes.length === 0) return;
    const { modifiedCount } = await this.models.embeddings.bulkWrite(
      writes.map(({ collection, itemId, model, sourceRevision, sourceUpdatedAt }) => ({
        updateOne: { filter: this.scoped({ collection, itemId, model }), update: { $set: { sourceRevision, sourceUpdatedAt } } },
      })),
      { ordered: false },
    );
    if (modifiedCount > 0) await this.models.generations.updateOne(this.scoped({}), { $inc: { touches: 1 } }, { upsert: true });
  }

  /** Removes an item's vectors under every model; true if there were any. */
  async removeItem(collection: string, itemId: string): Promise<boolean> {
    const { deletedCount } = await this.models.embeddings.deleteMany(this.scoped({ collection, itemId }));
    if (deletedCount > 0) await this.bump();
    return deletedCount > 0;
  }

  /** Removes every vector of a collection name (no live collection has it). */
  async removeCollection(collection: string): Promise<number> {
    const { deletedCount } = await this.models.embeddings.deleteMany(this.scoped({ collection }));
    if (deletedCount > 0) await this.bump();
    return deletedCount;
  }

  /**
   * Of a live collection's name, in one write: the vectors of any other collection that had the name, and its own
   * item vectors whose ids are not in `keepItems` (items that went without an event).
   */
  async removeAllBut(collection: string, collectionId: string, keepItems: readonly string[]): Promise<number> {
    const { deletedCount } = await this.models.embeddings.deleteMany(
      this.scoped({
        collection,
        $or: [{ collectionId: { $ne: toObjectId(collectionId) } }, { kind: 'item', itemId: { $nin: [...keepItems] } }],
      }),
    );
    if (deletedCount > 0) await this.bump();
    return deletedCount;
  }

  /** The collection names the site has vectors for (any model). */
  async collectionNames(): Promise<string[]> {
    return this.models.embeddings.distinct('collection', this.scoped({}));
  }

  /** Removes vectors made by any other model (after a model change re-embedded the site). */
  async removeOtherModels(model: string): Promise<number> {
    const { deletedCount } = await this.models.embeddings.deleteMany(this.scoped({ model: { $ne: model } }));
    if (deletedCount > 0) await this.bump();
    return deletedCount;
  }

  /** Every vector of the site (the whole site is removed). */
  async removeAll(): Promise<void> {
    await this.models.embeddings.deleteMany(this.scoped({}));
    await this.models.generations.deleteOne(this.scoped({}));
  }

  /** The site's vectors under `model`, decoded. */
  async load(model: string): Promise<StoredVector[]> {
    const documents = await this.models.embeddings
      .find(this.scoped({ model }), { _id: 0, kind: 1, collection: 1, itemId: 1, vector: 1 })
      .lean<Pick<EmbeddingDocument, 'kind' | 'collection' | 'itemId' | 'vector'>[]>();
    return documents.map((document) => ({
      kind: document.kind,
      collection: document.collection,
      itemId: document.itemId,
      vector: toVector(document.vector),
    }));
  }

  /** Bumped by every change of the site's vectors: a cache of them is current while this number is. */
  async generation(): Promise<number> {
    const document = await this.models.generations.findOne(this.scoped({}), { generation: 1 }).lean<{ generation: number }>();
    return document?.generation ?? 0;
  }

  /**
   * The generation and, in the same read, a stamp that also moves with the item versions the vectors stand for
   * (touches): the pending count's key.
   */
  async versionState(): Promise<{ generation: number; stamp: string }> {
    const document = await this.models.generations
      .findOne(this.scoped({}), { generation: 1, touches: 1 })
      .lean<{ generation: number; touches?: number }>();
    const generation = document?.generation ?? 0;
    return { generation, stamp: `${generation}.${document?.touches ?? 0}` };
  }

  private async bump(): Promise<void> {
    await this.models.generations.updateOne(this.scoped({}), { $inc: { generation: 1 } }, { upsert: true });
  }
}

function toObjectId(id: string): Types.ObjectId {
  const parsed = parseObjectId(id);
  if (!parsed) throw new TypeError(`not an object id: ${JSON.stringify(id)}`);
  return parsed;
}

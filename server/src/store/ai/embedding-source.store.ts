// What embedding reads of one site's content beyond the CMS stores (site-scoped): every item's version, and items by id
// across collections (search results).
import type { Types } from 'mongoose';
import type { Models } from '../models/index.js';
import { decodeRecord } from '../json-codec.js';
import { NOT_DELETED } from '../outbox.js';
import { parseObjectId, toId, toIso } from '../object-id.js';
import { SiteScopedStore } from '../site-scoped.js';

export interface ItemVersion {
  id: string;
  revision: number;
  updatedAt: Date;
}

export interface FoundItem {
  id: string;
  collectionId: string;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

interface StoredItem {
  _id: Types.ObjectId;
  collectionId: Types.ObjectId;
  data: unknown;
  createdAt: Date;
  updatedAt: Date;
  revision?: number;
}

export class EmbeddingSourceStore extends SiteScopedStore {
  constructor(
    private readonly models: Pick<Models, 'items'>,
    siteId: string,
  ) {
    super(siteId);
  }

  /**
   * The revision and updatedAt of every live item in the given collections (ids): a vector made at another version
   * is stale. Items whose collection is gone (or in the trash) are not searchable, so not asked about.
   */
  async itemVersions(collectionIds: readonly string[]): Promise<ItemVersion[]> {
    const ids = collectionIds.map(parseObjectId).filter((id): id is Types.ObjectId => id !== null);
    const documents = await this.models.items
      .find(this.scoped({ collectionId: { $in: ids }, ...NOT_DELETED }), { _id: 1, revision: 1, updatedAt: 1 })
      .lean<Pick<StoredItem, '_id' | 'revision' | 'updatedAt'>[]>();
    return documents.map((document) => ({ id: toId(document._id), revision: document.revision ?? 0, updatedAt: document.updatedAt }));
  }

  /** The live items of this site among `ids` (any collection), by id. */
  async itemsByIds(ids: readonly string[]): Promise<Map<string, FoundItem>> {
    const objectIds = ids.map(parseObjectId).filter((id): id is Types.ObjectId => id !== null);
    if (objectIds.length === 0) return new Map();
    const documents = await this.models.items
      .find(this.scoped({ _id: { $in: objectIds }, ...NOT_DELETED }), { _id: 1, collectionId: 1, data: 1, createdAt: 1, updatedAt: 1 })
      .lean<StoredItem[]>();
    return new Map(
      documents.map((document) => [
        toId(document._id),
        {
          id: toId(document._id),
          collectionId: toId(document.collectionId),
          data: decodeRecord(document.data),
          createdAt: toIso(document.createdAt),
          updatedAt: toIso(document.updatedAt),
        },
      ]),
    );
  }
}

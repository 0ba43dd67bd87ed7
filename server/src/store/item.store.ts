// One site's CMS items (site-scoped), always within one collection, addressed by its internal id.
import type { ContentChange } from '@lumibase/shared';
import { Types } from 'mongoose';
import { NOT_DELETED, type OutboxRelay, owe } from './outbox.js';
import { isDuplicateKeyError } from './duplicate-key.js';
import { decodeRecord, encodeJsonValue, encodeRecord } from './json-codec.js';
import type { CmsItemModel } from './models/cms-item.model.js';
import { type Page, type PageOf, parseObjectId, toId, toIso } from './object-id.js';
import { SiteScopedStore } from './site-scoped.js';

export interface ItemRecord {
  id: string;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

interface StoredItem {
  _id: Types.ObjectId;
  data: unknown;
  createdAt: Date;
  updatedAt: Date;
}

function toItem(document: StoredItem): ItemRecord {
  return {
    id: toId(document._id),
    data: decodeRecord(document.data),
    createdAt: toIso(document.createdAt),
    updatedAt: toIso(document.updatedAt),
  };
}

/** `data.<field>` paths; field names are validated names, never containing `.` or `$`. */
function dataPaths<T>(names: readonly string[], value: (name: string) => T): Record<string, T> {
  return Object.fromEntries(names.map((name) => [`data.${name}`, value(name)]));
}

export class ItemStore extends SiteScopedStore {
  constructor(
    private readonly items: CmsItemModel,
    siteId: string,
    private readonly relay: OutboxRelay,
  ) {
    super(siteId);
  }

  /** Newest first. */
  async list(collectionId: string, page: Page): Promise<PageOf<ItemRecord>> {
    const filter = this.inCollection(collectionId);
    const [documents, total] = await Promise.all([
      this.items.find(filter).sort({ createdAt: -1, _id: -1 }).skip(page.offset).limit(page.limit).lean<StoredItem[]>(),
      this.items.countDocuments(filter),
    ]);
    return { records: documents.map(toItem), total };
  }

  /** The item if it is in this site and collection; null for anything else, malformed ids included. */
  async findById(collectionId: string, id: string): Promise<ItemRecord | null> {
    const objectId = parseObjectId(id);
    if (!objectId) return null;
    const document = await this.items.findOne({ ...this.inCollection(collectionId), _id: objectId }).lean<StoredItem>();
    return document ? toItem(document) : null;
  }

  /**
   * Inserts an item. With an `operationId`, a repeat of the same operation returns the item the
   * first one created instead of inserting a second (the unique index on it decides).
   */
  async insert(collection: { id: string; name: string }, data: Record<string, unknown>, operationId?: string): Promise<ItemRecord> {
    if (operationId !== undefined) {
      const existing = await this.findByOperation(operationId);
      if (existing) return existing;
    }
    try {
      const _id = new Types.ObjectId();
      const [created] = await this.items.create([
        this.owned({
          _id,
          collectionId: parseObjectId(collection.id),
          data: encodeRecord(data),
          ...(operationId !== undefined ? { operationId } : {}),
          outbox: [this.owe('created', collection.name, _id.toString())],
        }),
      ]);
      await this.relay.relay(this.items, _id);
      return toItem(created!.toObject() as unknown as StoredItem);
    } catch (error) {
      const existing = operationId !== undefined && isDuplicateKeyError(error) ? await this.findByOperation(operationId) : null;
      if (existing) return existing;
      throw error;
    }
  }

  /** Sets and unsets top-level values; null when the item is not in this site and collection. */
  async update(
    collection: { id: string; name: string },
    id: string,
    changes: { set: Record<string, unknown>; unset: readonly string[] },
  ): Promise<ItemRecord | null> {
    const objectId = parseObjectId(id);
    if (!objectId) return null;
    const setNames = Object.keys(changes.set);
    const update = {
      ...(setNames.length > 0 ? { $set: dataPaths(setNames, (name) => encodeJsonValue(changes.set[name])) } : {}),
      ...(changes.unset.length > 0 ? { $unset: dataPaths(changes.unset, () => '') } : {}),
      $push: { outbox: this.owe('updated', collection.name, objectId.toString()) },
    };
    const document = await this.items
      .findOneAndUpdate({ ...this.inCollection(collection.id), _id: objectId }, update, { new: true })
      .lean<StoredItem>();
    if (!document) return null;
    await this.relay.relay(this.items, objectId);
    return toItem(document);
  }

  /**
   * True if the item was in this site and collection. The item becomes a tombstone carrying the
   * event its deletion owes; the relay removes it once that event is in the site's log.
   */
  async delete(collection: { id: string; name: string }, id: string): Promise<boolean> {
    const objectId = parseObjectId(id);
    if (!objectId) return false;
    const result = await this.items.updateOne(
      { ...this.inCollection(collection.id), _id: objectId },
      { $set: { deletedAt: new Date() }, $push: { outbox: this.owe('deleted', collection.name, objectId.toString()) } },
    );
    if (result.modifiedCount === 0) return false;
    await this.relay.relay(this.items, objectId);
    return true;
  }

  /** Part of deleting the collection, whose own event covers its items: tombstones go too. */
  async deleteAll(collectionId: string): Promise<number> {
    const result = await this.items.deleteMany(this.scoped({ collectionId: parseObjectId(collectionId) }));
    return result.deletedCount;
  }

  /** Removes a field's values from every item of the collection. */
  async unsetField(collectionId: string, field: string): Promise<void> {
    await this.items.updateMany(this.inCollection(collectionId), { $unset: { [`data.${field}`]: '' } });
  }

  async renameField(collectionId: string, from: string, to: string): Promise<void> {
    await this.items.updateMany(
      { ...this.inCollection(collectionId), [`data.${from}`]: { $exists: true } },
      { $rename: { [`data.${from}`]: `data.${to}` } },
    );
  }

  async count(collectionId: string): Promise<number> {
    return this.items.countDocuments(this.inCollection(collectionId));
  }

  private owe(action: ContentChange['action'], collection: string, id: string) {
    return owe({ name: 'content-changed', body: { kind: 'item', action, collection, id } });
  }

  private async findByOperation(operationId: string): Promise<ItemRecord | null> {
    const document = await this.items.findOne(this.scoped({ operationId, ...NOT_DELETED })).lean<StoredItem>();
    return document ? toItem(document) : null;
  }

  private inCollection(collectionId: string) {
    const objectId = parseObjectId(collectionId);
    if (!objectId) throw new TypeError(`ItemStore needs a collection id, got ${JSON.stringify(collectionId)}`);
    return this.scoped({ collectionId: objectId, ...NOT_DELETED });
  }
}

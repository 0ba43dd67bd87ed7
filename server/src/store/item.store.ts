// One site's CMS items (site-scoped), always within one collection, addressed by its internal id.
import type { ContentChange } from '@lumibase/shared';
import { Types } from 'mongoose';
import { NOT_DELETED, type OutboxRelay, type OwingDocument, owe, type RelayOptions } from './outbox.js';
import { isDuplicateKeyError } from './duplicate-key.js';
import { decodeRecord, encodeJsonValue, encodeRecord } from './json-codec.js';
import { oweRevision, type RevisionMeta, SYSTEM_ACTOR } from './item-revision.store.js';
import type { CmsItemModel } from './models/cms-item.model.js';
import { type Page, type PageOf, parseObjectId, toId, toIso } from './object-id.js';
import { SiteScopedStore } from './site-scoped.js';

export interface ItemRecord {
  id: string;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  /** The item's latest revision (0 for an item written before revisions existed and never changed since). */
  revision: number;
}

/** As stored: with what it owes (the relay takes it as written). */
interface StoredItem extends OwingDocument {
  data: unknown;
  createdAt: Date;
  updatedAt: Date;
  revision?: number;
}

function toItem(document: StoredItem): ItemRecord {
  return {
    id: toId(document._id),
    data: decodeRecord(document.data),
    createdAt: toIso(document.createdAt),
    updatedAt: toIso(document.updatedAt),
    revision: document.revision ?? 0,
  };
}

/** How many times a change is retried when concurrent changes keep taking the revision it read. */
const MAX_REVISION_ATTEMPTS = 100;

const DEFAULT_META: RevisionMeta = { actor: SYSTEM_ACTOR, via: 'rest' };

/**
 * An item write answers once its revision is stored (what reads after it see: the item, its history, its undo); its
 * event is relayed after the answer, durable in the item's outbox meanwhile (outbox.ts, RelayOptions).
 */
const AFTER_ANSWER = { answerWhen: 'work-done' } as const;

/** Matches the item while its revision is still `revision`: concurrent changes get consecutive numbers. */
function atRevision(revision: number) {
  return revision === 0 ? { revision: { $exists: false } } : { revision };
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
    const [records, total] = await Promise.all([this.page(collectionId, page), this.items.countDocuments(this.inCollection(collectionId))]);
    return { records, total };
  }

  /** A page as `list` gives it, without the total: a walk over every item (the embeddings indexer) has no use for it. */
  async page(collectionId: string, page: Page): Promise<ItemRecord[]> {
    const documents = await this.items
      .find(this.inCollection(collectionId))
      .sort({ createdAt: -1, _id: -1 })
      .skip(page.offset)
      .limit(page.limit)
      .lean<StoredItem[]>();
    return documents.map(toItem);
  }

  /** The item if it is in this site and collection; null for anything else, malformed ids included. */
  async findById(collectionId: string, id: string): Promise<ItemRecord | null> {
    const objectId = parseObjectId(id);
    if (!objectId) return null;
    const document = await this.items.findOne({ ...this.inCollection(collectionId), _id: objectId }).lean<StoredItem>();
    return document ? toItem(document) : null;
  }

  /**
   * Inserts an item: one write, not preceded by any read. With an `operationId`, a repeat of the same operation while
   * the item it created is still here returns that item instead of inserting a second (the unique index on it
   * decides). Once that item left (trashed, deleted), only its first revision remembers the operation: a caller that
   * may be repeating one looks there first (ItemsService.create).
   */
  async insert(
    collection: { id: string; name: string },
    data: Record<string, unknown>,
    operationId?: string,
    meta: RevisionMeta = DEFAULT_META,
  ): Promise<ItemRecord> {
    try {
      const _id = new Types.ObjectId();
      // The item and its first revision record one time, so that the item as created can be told from either.
      const at = new Date();
      const collectionId = parseObjectId(collection.id);
      if (!collectionId) throw new TypeError(`not a collection id: ${collection.id}`);
      // Every field set here, as the schema would: inserted as it is, without a mongoose document (a third of the CPU).
      const written: StoredItem = this.owned({
        _id,
        collectionId,
        data: encodeRecord(data),
        ...(operationId !== undefined ? { operationId } : {}),
        revision: 1,
        createdAt: at,
        updatedAt: at,
        owedRevisions: [oweRevision(1, 'created', data, { ...meta, ...(operationId !== undefined ? { operationId } : {}) }, at)],
        outbox: [this.owe('created', collection.name, _id.toString(), 1)],
      });
      await this.items.insertMany([written], { lean: true });
      await this.relay.relay(this.items, _id, written, AFTER_ANSWER);
      return toItem(written);
    } catch (error) {
      const existing = operationId !== undefined && isDuplicateKeyError(error) ? await this.findByOperation(operationId) : null;
      if (existing) return existing;
      throw error;
    }
  }

  /**
   * Sets and unsets top-level values; null when the item is not in this site and collection. The
   * change and its revision are one write, made only while the item is still at the revision read.
   */
  async update(
    collection: { id: string; name: string },
    id: string,
    changes: { set: Record<string, unknown>; unset: readonly string[] },
    meta: RevisionMeta = DEFAULT_META,
  ): Promise<ItemRecord | null> {
    const objectId = parseObjectId(id);
    if (!objectId) return null;
    const setNames = Object.keys(changes.set);
    return this.changeAtRevision(collection, objectId, (current, revision) => {
      const after = { ...decodeRecord(current.data), ...changes.set };
      for (const name of changes.unset) delete after[name];
      return {
        $set: { ...dataPaths(setNames, (name) => encodeJsonValue(changes.set[name])), revision },
        ...(changes.unset.length > 0 ? { $unset: dataPaths(changes.unset, () => '') } : {}),
        $push: {
          outbox: this.owe('updated', collection.name, objectId.toString(), revision),
          owedRevisions: oweRevision(revision, 'updated', after, meta),
        },
      };
    });
  }

  /** Replaces the item's data with a restored revision's; null when the item does not exist (any more). */
  async replace(
    collection: { id: string; name: string },
    id: string,
    data: Record<string, unknown>,
    meta: RevisionMeta,
  ): Promise<ItemRecord | null> {
    const objectId = parseObjectId(id);
    if (!objectId) return null;
    return this.changeAtRevision(collection, objectId, (_current, revision) => ({
      $set: { data: encodeRecord(data), revision },
      $push: {
        outbox: this.owe('updated', collection.name, objectId.toString(), revision),
        owedRevisions: oweRevision(revision, 'restored', data, meta),
      },
    }));
  }

  /**
   * Re-creates a deleted item under its old id with `revision` (the one after its last). Null when
   * the id is taken (the item exists again, or its tombstone is not relayed yet).
   */
  async recreate(
    collection: { id: string; name: string },
    id: string,
    data: Record<string, unknown>,
    revision: number,
    meta: RevisionMeta,
  ): Promise<ItemRecord | null> {
    const objectId = parseObjectId(id);
    if (!objectId) return null;
    try {
      const [created] = await this.items.create([
        this.owned({
          _id: objectId,
          collectionId: parseObjectId(collection.id),
          data: encodeRecord(data),
          revision,
          owedRevisions: [oweRevision(revision, 'restored', data, meta)],
          outbox: [this.owe('created', collection.name, objectId.toString(), revision)],
        }),
      ]);
      const written = created!.toObject() as unknown as StoredItem;
      await this.relay.relay(this.items, objectId, written, AFTER_ANSWER);
      return toItem(written);
    } catch (error) {
      if (isDuplicateKeyError(error)) return null;
      throw error;
    }
  }

  /** Finishes what an item id owes (its revisions, its events, its tombstone). */
  settle(id: string): Promise<void> {
    return this.relay.relay(this.items, id);
  }

  /**
   * True if the item was in this site and collection. The item becomes a tombstone carrying the
   * event its deletion owes; the relay removes it once that event is in the site's log.
   */
  async delete(collection: { id: string; name: string }, id: string, meta: RevisionMeta = DEFAULT_META): Promise<boolean> {
    const objectId = parseObjectId(id);
    if (!objectId) return false;
    // Answered once relayed in full: the tombstone goes with the relay, and a restore under the same id right after
    // the answer must not find it there.
    const deleted = await this.changeAtRevision(
      collection,
      objectId,
      (current, revision) => ({
        $set: { deletedAt: new Date(), revision },
        $push: {
          outbox: this.owe('deleted', collection.name, objectId.toString(), revision),
          owedRevisions: oweRevision(revision, 'deleted', decodeRecord(current.data), meta),
        },
      }),
      {},
    );
    return deleted !== null;
  }

  /**
   * Reads the item, then applies `change(current, next revision)` only while the item is still at the
   * revision it read, retrying when a concurrent change took it; relays what the change owes.
   */
  private async changeAtRevision(
    collection: { id: string; name: string },
    objectId: Types.ObjectId,
    change: (current: StoredItem, revision: number) => Record<string, unknown>,
    relayOptions: RelayOptions = AFTER_ANSWER,
  ): Promise<ItemRecord | null> {
    const filter = { ...this.inCollection(collection.id), _id: objectId };
    for (let attempt = 0; attempt < MAX_REVISION_ATTEMPTS; attempt++) {
      const current = await this.items.findOne(filter).lean<StoredItem>();
      if (!current) return null;
      const read = current.revision ?? 0;
      const document = await this.items
        .findOneAndUpdate({ ...filter, ...atRevision(read) }, change(current, read + 1), { new: true })
        .lean<StoredItem>();
      if (!document) continue;
      await this.relay.relay(this.items, objectId, document, relayOptions);
      return toItem(document);
    }
    throw new Error(`item ${objectId.toString()} kept changing: gave up after ${MAX_REVISION_ATTEMPTS} attempts`);
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

  /** How many items of the collection hold a value for the field. */
  async countWithField(collectionId: string, field: string): Promise<number> {
    return this.items.countDocuments({ ...this.inCollection(collectionId), [`data.${field}`]: { $exists: true } });
  }

  /**
   * Moves a trashed field's values out of the items' data, under the trash entry's id. Idempotent: a
   * repeat finds no value left to move. Bookkeeping of the schema change: no revision, no timestamp.
   */
  async moveFieldToTrash(collectionId: string, field: string, entryId: string): Promise<void> {
    await this.items.updateMany(
      this.scoped({ collectionId: parseObjectId(collectionId), [`data.${field}`]: { $exists: true } }),
      { $rename: { [`data.${field}`]: `trashedValues.${entryId}` } },
      { timestamps: false },
    );
  }

  /** How many items hold a value of the trashed field of this entry. */
  async countTrashedValues(collectionId: string, entryId: string): Promise<number> {
    return this.items.countDocuments(
      this.scoped({ collectionId: parseObjectId(collectionId), [`trashedValues.${entryId}`]: { $exists: true } }),
    );
  }

  /** Purging a field's trash entry: its values go for good. */
  async dropTrashedValues(collectionId: string, entryId: string): Promise<void> {
    await this.items.updateMany(
      this.scoped({ collectionId: parseObjectId(collectionId), [`trashedValues.${entryId}`]: { $exists: true } }),
      { $unset: { [`trashedValues.${entryId}`]: '' } },
      { timestamps: false },
    );
  }

  /** Puts a trashed field's values back into the items' data; returns how many items got theirs back. Idempotent. */
  async restoreFieldFromTrash(collectionId: string, entryId: string, field: string): Promise<number> {
    const result = await this.items.updateMany(
      this.scoped({ collectionId: parseObjectId(collectionId), [`trashedValues.${entryId}`]: { $exists: true } }),
      { $rename: { [`trashedValues.${entryId}`]: `data.${field}` } },
      { timestamps: false },
    );
    return result.modifiedCount;
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

  private owe(action: ContentChange['action'], collection: string, id: string, revision: number) {
    return owe({ name: 'content-changed', body: { kind: 'item', action, collection, id, revision } });
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

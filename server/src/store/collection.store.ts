// One site's CMS collections (site-scoped). Field edits are compare-and-set on a revision number.
import { ConflictError, type ContentChange, type Field } from '@lumibase/shared';
import { Types } from 'mongoose';
import { NOT_DELETED, type OutboxRelay, type OwingDocument, owe } from './outbox.js';
import { isDuplicateKeyError } from './duplicate-key.js';
import { decodeJsonValue, encodeJsonValue, type Stored } from './json-codec.js';
import type { CmsCollectionModel } from './models/cms-collection.model.js';
import { type Page, type PageOf, toId, toIso } from './object-id.js';
import { SiteScopedStore } from './site-scoped.js';

export interface CollectionRecord {
  /** Internal: items point at it. The API addresses collections by name. */
  id: string;
  name: string;
  label?: string;
  fields: Field[];
  revision: number;
  operationId?: string;
  /** Trash entries of fields this collection got back (a resumed restore knows its field is in). */
  restoredTrashIds: string[];
  /** The operation that added each field added by one (by field name): a plan's undo removes only a field its step added. */
  fieldOperations: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** What a restore from the trash does with the collection: put back, already back (a resumed restore), or refused. */
export type CollectionRestore = 'restored' | 'already-restored' | 'name-taken';

interface StoredField {
  name: string;
  type: Field['type'];
  required: boolean;
  options?: Stored;
  /** The operation that added the field, when one did (not part of the field's definition). */
  operationId?: string;
}

/** As stored: with what it owes (the relay takes it as written). */
interface StoredCollection extends OwingDocument {
  name: string;
  label?: string | null;
  fields: StoredField[];
  revision: number;
  operationId?: string | null;
  restoredTrashIds?: string[] | null;
  createdAt: Date;
  updatedAt: Date;
}

function encodeField(field: Field, operationId?: string): StoredField {
  const stored: StoredField = { name: field.name, type: field.type, required: field.required };
  if (field.options !== undefined) stored.options = encodeJsonValue(field.options);
  if (operationId !== undefined) stored.operationId = operationId;
  return stored;
}

function fieldOperationsOf(fields: readonly StoredField[]): Record<string, string> {
  const operations: Record<string, string> = {};
  for (const field of fields) if (typeof field.operationId === 'string') operations[field.name] = field.operationId;
  return operations;
}

function decodeField(stored: StoredField): Field {
  const field: Field = { name: stored.name, type: stored.type, required: stored.required === true };
  if (stored.options !== undefined && stored.options !== null) field.options = decodeJsonValue(stored.options) as Field['options'];
  return field;
}

function toCollection(document: StoredCollection): CollectionRecord {
  return {
    id: toId(document._id),
    name: document.name,
    ...(typeof document.label === 'string' ? { label: document.label } : {}),
    fields: (document.fields ?? []).map(decodeField),
    revision: document.revision ?? 0,
    ...(typeof document.operationId === 'string' ? { operationId: document.operationId } : {}),
    restoredTrashIds: document.restoredTrashIds ?? [],
    fieldOperations: fieldOperationsOf(document.fields ?? []),
    createdAt: toIso(document.createdAt),
    updatedAt: toIso(document.updatedAt),
  };
}

export class CollectionStore extends SiteScopedStore {
  constructor(
    private readonly collections: CmsCollectionModel,
    siteId: string,
    private readonly relay: OutboxRelay,
  ) {
    super(siteId);
  }

  /** Live collections of this site (tombstones of deleted ones wait for their event to be relayed). */
  private live<T extends object>(filter: T) {
    return this.scoped({ ...filter, ...NOT_DELETED });
  }

  async list(page: Page): Promise<PageOf<CollectionRecord>> {
    const [documents, total] = await Promise.all([
      this.collections.find(this.live({})).sort({ name: 1 }).skip(page.offset).limit(page.limit).lean<StoredCollection[]>(),
      this.collections.countDocuments(this.live({})),
    ]);
    return { records: documents.map(toCollection), total };
  }

  async listAll(): Promise<CollectionRecord[]> {
    const documents = await this.collections.find(this.live({})).sort({ name: 1 }).lean<StoredCollection[]>();
    return documents.map(toCollection);
  }

  async findByName(name: string): Promise<CollectionRecord | null> {
    const document = await this.collections.findOne(this.live({ name })).lean<StoredCollection>();
    return document ? toCollection(document) : null;
  }

  /** A live collection by its internal id (what item revisions point at). */
  async findById(id: string): Promise<CollectionRecord | null> {
    if (!Types.ObjectId.isValid(id)) return null;
    const document = await this.collections.findOne(this.live({ _id: new Types.ObjectId(id) })).lean<StoredCollection>();
    return document ? toCollection(document) : null;
  }

  /**
   * Throws ConflictError when the site already has a collection of that name, unless that
   * collection was created by the same `operationId` (a retry), which returns it instead.
   */
  async create(collection: { name: string; label?: string; fields: Field[]; operationId?: string }): Promise<CollectionRecord> {
    try {
      const _id = new Types.ObjectId();
      const at = new Date();
      // Every field set here, as the schema would (timestamps included): inserted as it is, without a mongoose document.
      const written: StoredCollection = this.owned({
        _id,
        outbox: [owe({ name: 'content-changed', body: { kind: 'collection', action: 'created', collection: collection.name } })],
        name: collection.name,
        ...(collection.label !== undefined ? { label: collection.label } : {}),
        fields: collection.fields.map((field) => encodeField(field)),
        revision: 0,
        ...(collection.operationId !== undefined ? { operationId: collection.operationId } : {}),
        createdAt: at,
        updatedAt: at,
      });
      await this.collections.insertMany([written], { lean: true });
      // Answered once its event has its seq: its subscribers (embeddings, webhooks, the target watch) follow.
      await this.relay.relay(this.collections, _id, written, { answerWhen: 'events-inserted' });
      return toCollection(written);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      const existing = collection.operationId !== undefined ? await this.findByName(collection.name) : null;
      if (existing && existing.operationId === collection.operationId) return existing;
      throw new ConflictError({ message: `Collection "${collection.name}" already exists` });
    }
  }

  /**
   * Removes the collection and returns what it was, or null if there was none (with `id`: none of
   * that identity). It becomes a tombstone carrying its deletion's events (`also`: more of them);
   * `finishDelete` relays them and removes it.
   */
  async delete(name: string, options: { id?: string; also?: ContentChange[] } = {}): Promise<CollectionRecord | null> {
    const byId = options.id !== undefined ? { _id: new Types.ObjectId(options.id) } : {};
    const events = [{ kind: 'collection', action: 'deleted', collection: name } as const, ...(options.also ?? [])];
    const document = await this.collections
      .findOneAndUpdate(this.live({ name, ...byId }), {
        $set: { deletedAt: new Date() },
        $push: { outbox: { $each: events.map((body) => owe({ name: 'content-changed', body })) } },
      })
      .lean<StoredCollection>();
    return document ? toCollection(document) : null;
  }

  /**
   * Puts a trashed collection back under its old id (its items point at it), owing `events`. A
   * collection of that id already live means an earlier attempt did it; its name live under
   * another id means it was taken again meanwhile.
   */
  async restore(
    collection: { id: string; name: string; label?: string; fields: Field[] },
    events: ContentChange[],
  ): Promise<CollectionRestore> {
    const _id = new Types.ObjectId(collection.id);
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.findById(collection.id)) return 'already-restored';
      // The deletion's tombstone, if its events were never relayed, goes first: it holds the id.
      await this.relay.relay(this.collections, _id);
      try {
        const [created] = await this.collections.create([
          this.owned({
            _id,
            outbox: events.map((body) => owe({ name: 'content-changed', body })),
            name: collection.name,
            ...(collection.label !== undefined ? { label: collection.label } : {}),
            fields: collection.fields.map((field) => encodeField(field)),
            revision: 0,
          }),
        ]);
        await this.relay.relay(this.collections, _id, created!.toObject() as unknown as StoredCollection);
        return 'restored';
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        const holder = await this.collections
          .findOne(this.scoped({ name: collection.name }), { _id: 1, deletedAt: 1 })
          .lean<{ _id: Types.ObjectId; deletedAt?: Date }>();
        if (holder && !holder._id.equals(_id) && !holder.deletedAt) return 'name-taken';
        // Another collection's tombstone still holds the name: finish it, then try again.
        if (holder?.deletedAt) await this.relay.relay(this.collections, holder._id);
      }
    }
    throw new ConflictError({ message: `Collection "${collection.name}" is being changed by someone else; try again` });
  }

  /** Called once the deleted collection's items are gone: its event goes out and the tombstone with it. */
  async finishDelete(record: CollectionRecord): Promise<void> {
    await this.relay.relay(this.collections, record.id);
  }

  /**
   * Replaces the field list if the collection is still at `expectedRevision`. Null when someone
   * changed it in between (the caller re-reads and re-checks), or null when it is gone. `also`: more
   * events the change owes; `restoredTrashId`: the trash entry whose field this puts back; `fieldOperations`: the
   * operation that added each field of the new list that one added (by name).
   */
  async replaceFields(
    name: string,
    expectedRevision: number,
    fields: readonly Field[],
    change: { action: 'created' | 'updated' | 'deleted'; field: string },
    options: { also?: ContentChange[]; restoredTrashId?: string; fieldOperations?: Record<string, string> } = {},
  ): Promise<CollectionRecord | null> {
    const events: ContentChange[] = [
      { kind: 'field', action: change.action, collection: name, field: change.field },
      ...(options.also ?? []),
    ];
    const document = await this.collections
      .findOneAndUpdate(
        this.live({ name, revision: expectedRevision }),
        {
          $set: { fields: fields.map((field) => encodeField(field, options.fieldOperations?.[field.name])) },
          $inc: { revision: 1 },
          $push: {
            outbox: { $each: events.map((body) => owe({ name: 'content-changed', body })) },
            ...(options.restoredTrashId !== undefined ? { restoredTrashIds: options.restoredTrashId } : {}),
          },
        },
        { new: true },
      )
      .lean<StoredCollection>();
    if (!document) return null;
    await this.relay.relay(this.collections, document._id, document);
    return toCollection(document);
  }
}

// One site's trash entries (site-scoped): written before a deletion, listed once it is done,
// claimed by a restore or a purge (never both), removed last.
import { randomUUID } from 'node:crypto';
import type { ActorRef, TrashKind } from '@lumibase/shared';
import { Types } from 'mongoose';
import { decodeJson, encodeJson } from './json-codec.js';
import type { TrashEntryModel } from './models/trash-entry.model.js';
import { type Page, type PageOf, parseObjectId, toId, toIso } from './object-id.js';
import { SiteScopedStore } from './site-scoped.js';

/** This process, as the holder of the restores it claims. */
export const THIS_PROCESS = randomUUID();
/** After this long, another process may take over a restore whose holder never finished (it crashed). */
export const RESTORE_LEASE_MS = 5 * 60_000;

export interface TrashRecord {
  id: string;
  kind: TrashKind;
  collectionId: string;
  collection: string;
  field?: string;
  /** An item entry's item and its title. */
  itemId?: string;
  title?: string;
  /** `{ label?, fields }` of a collection, the `Field` of a field, `{ itemId }` of an item. */
  definition: unknown;
  items: number;
  deletedBy: ActorRef;
  deletedAt: string;
  expiresAt: string;
  state: 'pending' | 'done';
  restoring: boolean;
}

export interface NewTrashEntry {
  kind: TrashKind;
  collectionId: string;
  collection: string;
  field?: string;
  itemId?: string;
  title?: string;
  definition: unknown;
  items: number;
  deletedBy: ActorRef;
  deletedAt: Date;
  expiresAt: Date;
}

export interface StoredTrashEntry {
  _id: Types.ObjectId;
  siteId: Types.ObjectId;
  kind: TrashKind;
  collectionId: Types.ObjectId;
  collectionName: string;
  field?: string | null;
  itemId?: Types.ObjectId | null;
  title?: string | null;
  definitionJson: string;
  items: number;
  deletedBy: { id: string; name?: string | null };
  deletedAt: Date;
  expiresAt: Date;
  state: 'pending' | 'done';
  restoringAt?: Date | null;
  restoringBy?: string | null;
  purgingAt?: Date | null;
}

export function toTrashRecord(document: StoredTrashEntry): TrashRecord {
  return {
    id: toId(document._id),
    kind: document.kind,
    collectionId: toId(document.collectionId),
    collection: document.collectionName,
    ...(typeof document.field === 'string' ? { field: document.field } : {}),
    ...(document.itemId ? { itemId: toId(document.itemId) } : {}),
    ...(typeof document.title === 'string' ? { title: document.title } : {}),
    definition: decodeJson(document.definitionJson),
    items: document.items,
    deletedBy: { id: document.deletedBy.id, name: document.deletedBy.name ?? '' },
    deletedAt: toIso(document.deletedAt),
    expiresAt: toIso(document.expiresAt),
    state: document.state,
    restoring: document.restoringAt != null,
  };
}

export class TrashStore extends SiteScopedStore {
  constructor(
    private readonly entries: TrashEntryModel,
    siteId: string,
  ) {
    super(siteId);
  }

  /** Written `pending`, before the deletion it records starts. */
  async create(entry: NewTrashEntry): Promise<TrashRecord> {
    const { definition, collectionId, collection, itemId, ...rest } = entry;
    const [created] = await this.entries.create([
      this.owned({
        _id: new Types.ObjectId(),
        ...rest,
        ...(itemId !== undefined ? { itemId: parseObjectId(itemId) } : {}),
        collectionId: parseObjectId(collectionId),
        collectionName: collection,
        definitionJson: encodeJson(definition),
        state: 'pending',
      }),
    ]);
    return toTrashRecord(created!.toObject() as unknown as StoredTrashEntry);
  }

  /** The deletion is complete: the entry shows in the trash. `changes` corrects what changed since it was written. */
  async complete(id: string, changes: { definition?: unknown; items?: number } = {}): Promise<void> {
    await this.entries.updateOne(this.byId(id), {
      $set: {
        state: 'done',
        ...(changes.definition !== undefined ? { definitionJson: encodeJson(changes.definition) } : {}),
        ...(changes.items !== undefined ? { items: changes.items } : {}),
      },
    });
  }

  /** Completed entries not past their expiry, newest first; only those of `kinds` when given. */
  async list(page: Page, now: Date, kinds?: readonly TrashKind[]): Promise<PageOf<TrashRecord>> {
    const filter = this.scoped({
      state: 'done',
      expiresAt: { $gt: now },
      purgingAt: { $exists: false },
      ...(kinds !== undefined ? { kind: { $in: [...kinds] } } : {}),
    });
    const [documents, total] = await Promise.all([
      this.entries.find(filter).sort({ deletedAt: -1, _id: -1 }).skip(page.offset).limit(page.limit).lean<StoredTrashEntry[]>(),
      this.entries.countDocuments(filter),
    ]);
    return { records: documents.map(toTrashRecord), total };
  }

  /**
   * Takes a completed entry for a restore, as one compare-and-set: one not expired, not being purged
   * and not held by a restore; or one `owner` itself claimed before (its attempt failed or died half-way:
   * the caller keeps its own restores under way from getting here); or one whose holder has not
   * finished within the lease (a crashed process). Null for anything else, malformed ids included.
   */
  async claimForRestore(id: string, now: Date, owner: string = THIS_PROCESS): Promise<TrashRecord | null> {
    const objectId = parseObjectId(id);
    if (!objectId) return null;
    const document = await this.entries
      .findOneAndUpdate(
        this.scoped({
          _id: objectId,
          state: 'done',
          purgingAt: { $exists: false },
          $or: [
            { restoringAt: { $exists: false }, expiresAt: { $gt: now } },
            { restoringAt: { $exists: true }, restoringBy: owner },
            { restoringAt: { $lte: new Date(now.getTime() - RESTORE_LEASE_MS) } },
          ],
        }),
        { $set: { restoringAt: now, restoringBy: owner } },
        { new: true },
      )
      .lean<StoredTrashEntry>();
    return document ? toTrashRecord(document) : null;
  }

  /** True while another process's restore holds the entry (within its lease). */
  async heldByAnotherRestore(id: string, now: Date, owner: string = THIS_PROCESS): Promise<boolean> {
    const objectId = parseObjectId(id);
    if (!objectId) return false;
    const held = await this.entries.exists(
      this.scoped({
        _id: objectId,
        purgingAt: { $exists: false },
        restoringAt: { $gt: new Date(now.getTime() - RESTORE_LEASE_MS) },
        restoringBy: { $ne: owner },
      }),
    );
    return held !== null;
  }

  /** A restore that could not go through (the name is taken) gives the entry back to the trash. */
  async release(id: string): Promise<void> {
    await this.entries.updateOne(this.byId(id), { $unset: { restoringAt: '', restoringBy: '' } });
  }

  /** Takes an expired entry for the purge, unless a restore has it. Null when it is not to be purged. */
  async claimForPurge(id: string, now: Date): Promise<TrashRecord | null> {
    const document = await this.entries
      .findOneAndUpdate(
        { ...this.byId(id), state: 'done', expiresAt: { $lte: now }, restoringAt: { $exists: false } },
        { $set: { purgingAt: now } },
        { new: true },
      )
      .lean<StoredTrashEntry>();
    return document ? toTrashRecord(document) : null;
  }

  /** A pending entry, to finish or drop after a crash (services/trash-purge.ts). */
  async findPending(id: string): Promise<TrashRecord | null> {
    const document = await this.entries.findOne({ ...this.byId(id), state: 'pending' }).lean<StoredTrashEntry>();
    return document ? toTrashRecord(document) : null;
  }

  /** The completed entry, unclaimed or not; null for anything else, malformed ids included. */
  async findDone(id: string): Promise<TrashRecord | null> {
    const objectId = parseObjectId(id);
    if (!objectId) return null;
    const document = await this.entries.findOne(this.scoped({ _id: objectId, state: 'done' })).lean<StoredTrashEntry>();
    return document ? toTrashRecord(document) : null;
  }

  /**
   * The newest completed entry of a deletion: of the item `itemId`, of the field `field` of the collection, or of the
   * collection (what a plan's undo of a deletion restores). Null when there is none (restored or purged already).
   */
  async findLatest(match: { kind: TrashKind; collection: string; field?: string; itemId?: string }): Promise<TrashRecord | null> {
    const itemId = match.itemId !== undefined ? parseObjectId(match.itemId) : undefined;
    if (itemId === null) return null;
    const document = await this.entries
      .findOne(
        this.scoped({
          kind: match.kind,
          collectionName: match.collection,
          state: 'done',
          purgingAt: { $exists: false },
          ...(match.field !== undefined ? { field: match.field } : {}),
          ...(itemId ? { itemId } : {}),
        }),
      )
      .sort({ deletedAt: -1, _id: -1 })
      .lean<StoredTrashEntry>();
    return document ? toTrashRecord(document) : null;
  }

  /** An item is back (restored by its revisions): its entries leave the trash. Entries a restore holds stay with it. */
  async removeForItem(itemId: string): Promise<void> {
    const objectId = parseObjectId(itemId);
    if (!objectId) return;
    await this.entries.deleteMany(this.scoped({ kind: 'item', itemId: objectId, restoringAt: { $exists: false } }));
  }

  /** A collection purged for good: its items' entries have nothing left to restore. */
  async removeItemsOf(collectionId: string): Promise<void> {
    const objectId = parseObjectId(collectionId);
    if (!objectId) return;
    await this.entries.deleteMany(this.scoped({ kind: 'item', collectionId: objectId }));
  }

  async remove(id: string): Promise<void> {
    await this.entries.deleteOne(this.byId(id));
  }

  private byId(id: string) {
    const objectId = parseObjectId(id);
    if (!objectId) throw new TypeError(`TrashStore needs an entry id, got ${JSON.stringify(id)}`);
    return this.scoped({ _id: objectId });
  }
}

// Item revisions: owed on the item document with the change (like its events), then materialised here.
import type { ActorRef, RevisionAction, RevisionVia } from '@lumibase/shared';
import type { Types } from 'mongoose';
import { isDuplicateKeyError } from './duplicate-key.js';
import { decodeJson, encodeJson } from './json-codec.js';
import type { CmsItemModel } from './models/cms-item.model.js';
import type { ItemRevisionModel } from './models/item-revision.model.js';
import { parseObjectId, toIso } from './object-id.js';
import type { OwedWork } from './outbox.js';
import { SiteScopedStore } from './site-scoped.js';

/** Who made a change and how: recorded with every revision. */
export interface RevisionMeta {
  actor: ActorRef;
  via: RevisionVia;
  approvalId?: string;
  operationId?: string;
}

export const SYSTEM_ACTOR: ActorRef = { id: 'system', name: 'System' };

export interface OwedRevision {
  revision: number;
  action: RevisionAction;
  dataJson: string;
  actor: ActorRef;
  via: RevisionVia;
  approvalId?: string;
  operationId?: string;
  createdAt: Date;
}

export interface RevisionRecord {
  itemId: string;
  collectionId: string;
  revision: number;
  action: RevisionAction;
  data: Record<string, unknown>;
  actor: ActorRef;
  via: RevisionVia;
  approvalId?: string;
  operationId?: string;
  createdAt: string;
}

/**
 * The revision a change owes: built by the item store and pushed in the same update as the change. `at`: when, if the
 * change has its own time to match (a new item: the time its first revision and the item itself record).
 */
export function oweRevision(
  revision: number,
  action: RevisionAction,
  data: Record<string, unknown>,
  meta: RevisionMeta,
  at: Date = new Date(),
): OwedRevision {
  return {
    revision,
    action,
    dataJson: encodeJson(data),
    actor: { id: meta.actor.id, name: meta.actor.name },
    via: meta.via,
    ...(meta.approvalId !== undefined ? { approvalId: meta.approvalId } : {}),
    ...(meta.operationId !== undefined ? { operationId: meta.operationId } : {}),
    createdAt: at,
  };
}

interface StoredRevision extends OwedRevision {
  itemId: Types.ObjectId;
  collectionId: Types.ObjectId;
}

function toRevision(document: StoredRevision): RevisionRecord {
  return {
    itemId: document.itemId.toString(),
    collectionId: document.collectionId.toString(),
    revision: document.revision,
    action: document.action,
    data: decodeJson(document.dataJson) as Record<string, unknown>,
    actor: { id: document.actor.id, name: document.actor.name ?? '' },
    via: document.via,
    ...(document.approvalId != null ? { approvalId: document.approvalId } : {}),
    ...(document.operationId != null ? { operationId: document.operationId } : {}),
    createdAt: toIso(document.createdAt),
  };
}

/** What the drain reads of an item. */
interface OwingItem {
  _id: Types.ObjectId;
  siteId: Types.ObjectId;
  collectionId: Types.ObjectId;
  owedRevisions?: OwedRevision[];
}

/**
 * What the outbox relay does for items besides their events: copies owed revisions into
 * `item_revisions` (a repeat inserts nothing: the unique index), then clears them. A tombstone is
 * only removed once this is done, so a deleted item's last revision is never lost.
 */
export function itemRevisionWork(items: CmsItemModel, revisions: ItemRevisionModel): OwedWork {
  return {
    owing: { 'owedRevisions.0': { $exists: true } },
    settled: { $or: [{ owedRevisions: { $size: 0 } }, { owedRevisions: { $exists: false } }] },
    async drain(id, written) {
      // The item as its write left it holds every revision owed up to that write (OutboxRelay.relay says why that is
      // enough): no read. A repeat of one already copied meets the unique index and is only cleared.
      const document =
        (written as OwingItem | undefined) ??
        (await items.findById(id, { siteId: 1, collectionId: 1, owedRevisions: 1 }).lean<OwingItem>());
      const copied: number[] = [];
      for (const owed of document?.owedRevisions ?? []) {
        try {
          // Owed as the schema stores it (written by the item's store, or read back): inserted as it is.
          await revisions.insertMany([{ ...owed, siteId: document!.siteId, collectionId: document!.collectionId, itemId: document!._id }], {
            lean: true,
          });
        } catch (error) {
          if (!isDuplicateKeyError(error)) throw error;
        }
        copied.push(owed.revision);
      }
      // Cleared with the item's relayed events, in one write (OutboxRelay).
      return copied.length > 0 ? { owedRevisions: { revision: { $in: copied } } } : undefined;
    },
  };
}

export class ItemRevisionStore extends SiteScopedStore {
  constructor(
    private readonly revisions: ItemRevisionModel,
    siteId: string,
  ) {
    super(siteId);
  }

  /** Newest first; empty for an id this site never had in this collection. */
  async list(collectionId: string, itemId: string): Promise<RevisionRecord[]> {
    const filter = this.ofItem(collectionId, itemId);
    if (!filter) return [];
    const documents = await this.revisions.find(filter).sort({ revision: -1 }).lean<StoredRevision[]>();
    return documents.map(toRevision);
  }

  async find(collectionId: string, itemId: string, revision: number): Promise<RevisionRecord | null> {
    const filter = this.ofItem(collectionId, itemId);
    if (!filter) return null;
    const document = await this.revisions.findOne({ ...filter, revision }).lean<StoredRevision>();
    return document ? toRevision(document) : null;
  }

  /** The latest materialised revision number of the item (0 when there is none). */
  async latest(collectionId: string, itemId: string): Promise<number> {
    const filter = this.ofItem(collectionId, itemId);
    if (!filter) return 0;
    const document = await this.revisions.findOne(filter, { revision: 1 }).sort({ revision: -1 }).lean<{ revision: number }>();
    return document?.revision ?? 0;
  }

  /**
   * The revision a skill operation wrote (an approval's id is its operation id), its latest; with `action`, the one of
   * that action. `created`: the first revision of the item the operation created, which outlives the item's stay in
   * the collection (trashed, deleted, restored under its id without the operation id) and goes only with its history
   * (a purged collection, a plan's undo of the creation, REVISION_RETENTION_DAYS).
   */
  async findByOperation(operationId: string, action?: RevisionAction): Promise<RevisionRecord | null> {
    const document = await this.revisions
      .findOne(this.scoped({ operationId, ...(action === undefined ? {} : { action }) }))
      .sort({ revision: -1 })
      .lean<StoredRevision>();
    return document ? toRevision(document) : null;
  }

  /** Purging a trashed collection: the history of its items goes with them. */
  async deleteForCollection(collectionId: string): Promise<void> {
    const collection = parseObjectId(collectionId);
    if (!collection) return;
    await this.revisions.deleteMany(this.scoped({ collectionId: collection }));
  }

  /** An item discarded for good (a plan's undo of its creation): it leaves no history. */
  async deleteForItem(collectionId: string, itemId: string): Promise<void> {
    const filter = this.ofItem(collectionId, itemId);
    if (filter) await this.revisions.deleteMany(filter);
  }

  /** Purging a trashed field: its values leave every revision of the collection's items (again: none left). */
  async dropField(collectionId: string, field: string): Promise<void> {
    const collection = parseObjectId(collectionId);
    if (!collection) return;
    const cursor = this.revisions
      .find(this.scoped({ collectionId: collection }), { _id: 1, dataJson: 1 })
      .lean<{ _id: Types.ObjectId; dataJson: string }[]>()
      .cursor();
    for await (const document of cursor) {
      const data = decodeJson(document.dataJson) as Record<string, unknown>;
      if (!Object.hasOwn(data, field)) continue;
      delete data[field];
      await this.revisions.updateOne(this.scoped({ _id: document._id }), { $set: { dataJson: encodeJson(data) } });
    }
  }

  private ofItem(collectionId: string, itemId: string) {
    const collection = parseObjectId(collectionId);
    const item = parseObjectId(itemId);
    if (!collection || !item) return null;
    return this.scoped({ collectionId: collection, itemId: item });
  }
}

/**
 * Revision retention, across sites: revisions created before `cutoff` are deleted, except each live
 * item's newest (restoring or undoing its current state keeps working). Returns how many went.
 */
export async function expireRevisions(revisions: ItemRevisionModel, items: CmsItemModel, cutoff: Date, batch = 200): Promise<number> {
  const old = await revisions
    .find({ createdAt: { $lt: cutoff } }, { siteId: 1, itemId: 1 })
    .limit(batch)
    .lean<{ siteId: Types.ObjectId; itemId: Types.ObjectId }[]>();
  const seen = new Set<string>();
  let deleted = 0;
  for (const { siteId, itemId } of old) {
    const key = `${siteId.toHexString()}/${itemId.toHexString()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const filter: Record<string, unknown> = { siteId, itemId, createdAt: { $lt: cutoff } };
    const live = await items.exists({ _id: itemId, siteId, deletedAt: { $exists: false } });
    if (live) {
      const newest = await revisions.findOne({ siteId, itemId }, { revision: 1 }).sort({ revision: -1 }).lean<{ revision: number }>();
      if (newest) filter.revision = { $lt: newest.revision };
    }
    deleted += (await revisions.deleteMany(filter)).deletedCount;
  }
  return deleted;
}

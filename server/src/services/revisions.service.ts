// Item revisions: the history of an item (also once deleted), restoring one, and the Copilot's undo.
import {
  type ActorRef,
  ConflictError,
  type ErrorDetail,
  type Field,
  type ItemRevisionView,
  type ItemView,
  NotFoundError,
  type UndoRef,
  ValidationError,
} from '@lumibase/shared';
import type { AuditRepository } from '../store/ai/audit.store.js';
import type { ItemRecord } from '../store/item.store.js';
import type { RevisionRecord } from '../store/item-revision.store.js';
import { recordNotInSite } from '../store/record-not-in-site.js';
import type { SiteStores, Stores } from '../store/stores.js';
import { collectionNotFound } from './collections.service.js';
import { validateItemData } from './validate-item-data.js';

/** 409: the revision's data does not fit the collection's fields as they are now. */
export class RestoreConflictError extends ConflictError {
  constructor(details: ErrorDetail[]) {
    super({ message: 'This revision no longer fits the collection’s fields' });
    Object.assign(this, { details });
  }
}

const MAX_RESTORE_ATTEMPTS = 5;

function toRevisionView(record: RevisionRecord): ItemRevisionView {
  return {
    revision: record.revision,
    action: record.action,
    data: record.data,
    actor: record.actor,
    via: record.via,
    ...(record.approvalId !== undefined ? { approvalId: record.approvalId } : {}),
    createdAt: record.createdAt,
  };
}

function toItemView(record: ItemRecord, collection: string): ItemView {
  return { id: record.id, collection, data: record.data, createdAt: record.createdAt, updatedAt: record.updatedAt };
}

export interface RevisionsServiceOptions {
  stores: Pick<Stores, 'forSite'>;
  audit: (siteId: string) => AuditRepository;
  clock?: () => Date;
}

export class RevisionsService {
  constructor(private readonly options: RevisionsServiceOptions) {}

  /** Newest first. An id the site never had in the collection is the usual not-in-site 403. */
  async list(siteId: string, collection: string, id: string): Promise<ItemRevisionView[]> {
    const { site, collectionId } = await this.collection(siteId, collection);
    const revisions = await site.revisions.list(collectionId, id);
    if (revisions.length === 0) {
      // An item written before revisions existed has none yet, and still exists.
      if (await site.items.findById(collectionId, id)) return [];
      throw recordNotInSite();
    }
    return revisions.map(toRevisionView);
  }

  /**
   * Makes `revision`'s data the item's again, as a new `restored` revision; re-creates the item under
   * its id if it was deleted. Audited as `restored`.
   */
  async restore(
    siteId: string,
    collection: string,
    id: string,
    revision: number,
    actor: ActorRef,
  ): Promise<ItemView & { revision: number }> {
    const { site, collectionId, fields } = await this.collection(siteId, collection);
    const target = await site.revisions.find(collectionId, id, revision);
    if (!target) {
      if ((await site.revisions.latest(collectionId, id)) === 0 && !(await site.items.findById(collectionId, id))) throw recordNotInSite();
      throw new NotFoundError({ resource: `Revision ${revision}` });
    }
    let data: Record<string, unknown>;
    try {
      data = validateItemData(fields, target.data, 'create').set;
    } catch (error) {
      if (error instanceof ValidationError) throw new RestoreConflictError(error.details ?? []);
      throw error;
    }
    const ref = { id: collectionId, name: collection };
    const meta = { actor, via: 'restore' as const };
    let restored: ItemRecord | null = null;
    for (let attempt = 0; attempt < MAX_RESTORE_ATTEMPTS && !restored; attempt++) {
      restored = await site.items.replace(ref, id, data, meta);
      if (restored) break;
      // Deleted: finish its tombstone (its last revision lands first), then re-create it after that revision.
      await site.items.settle(id);
      restored = await site.items.recreate(ref, id, data, (await site.revisions.latest(collectionId, id)) + 1, meta);
    }
    if (!restored) throw new ConflictError({ message: 'The item kept changing while it was being restored; try again' });
    // Back: whatever the trash held of it is restored (an entry a trash restore holds leaves with that restore).
    await site.trash.removeForItem(id);
    await this.options.audit(siteId).append({
      action: 'restored',
      actor: { id: actor.id, name: actor.name },
      detail: { collection, id, revision: restored.revision, restoredRevision: revision },
      createdAt: (this.options.clock ?? (() => new Date()))().toISOString(),
    });
    return { ...toItemView(restored, collection), revision: restored.revision };
  }

  /**
   * What undoes the item change a skill operation made: the revision before it. Undefined when the
   * operation changed no item, or created it (there is nothing before its first revision).
   */
  async undoFor(siteId: string, operationId: string): Promise<UndoRef | undefined> {
    const site = this.options.stores.forSite(siteId);
    const change = await site.revisions.findByOperation(operationId);
    if (!change || change.revision <= 1) return undefined;
    const collection = await site.collections.findById(change.collectionId);
    if (!collection) return undefined;
    return { collection: collection.name, id: change.itemId, revision: change.revision - 1 };
  }

  private async collection(siteId: string, name: string): Promise<{ site: SiteStores; collectionId: string; fields: Field[] }> {
    const site = this.options.stores.forSite(siteId);
    const record = await site.collections.findByName(name);
    if (!record) throw collectionNotFound(name);
    return { site, collectionId: record.id, fields: record.fields };
  }
}

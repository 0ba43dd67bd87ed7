// Items of one collection: CRUD with data validated against the collection's fields; a deleted item goes to the trash.
import type { ItemView } from '@lumibase/shared';
import type { ItemRecord } from '../store/item.store.js';
import type { Page, PageOf } from '../store/object-id.js';
import type { SiteStores, Stores } from '../store/stores.js';
import type { CollectionRecord } from '../store/collection.store.js';
import { collectionNotFound } from './collections.service.js';
import { recordNotInSite } from '../store/record-not-in-site.js';
import { validateItemData } from './validate-item-data.js';
import type { WriteContext } from './write-context.js';
import { type RevisionMeta, type RevisionRecord, SYSTEM_ACTOR } from '../store/item-revision.store.js';
import { itemTitle } from './item-title.js';
import { DEFAULT_TRASH_RETENTION, deleterOf, type TrashRetention, trashWindow } from './trash-retention.js';

/** Who and how, as the item's revision records it. */
export function revisionMeta(context: WriteContext): RevisionMeta {
  return {
    actor: context.actor ?? SYSTEM_ACTOR,
    via: context.via ?? 'rest',
    ...(context.approvalId !== undefined ? { approvalId: context.approvalId } : {}),
    ...(context.operationId !== undefined ? { operationId: context.operationId } : {}),
  };
}

function toItemView(record: ItemRecord, collection: string): ItemView {
  return { id: record.id, collection, data: record.data, createdAt: record.createdAt, updatedAt: record.updatedAt };
}

/** The item as its creation made it (the store gives the item and its first revision one time). */
function creationView(creation: RevisionRecord, collection: string): ItemView {
  return { id: creation.itemId, collection, data: creation.data, createdAt: creation.createdAt, updatedAt: creation.createdAt };
}

/**
 * Errors, in the order a caller meets them: NotFoundError for a collection name the site lacks,
 * ValidationError for data that does not fit the fields, and the not-in-site ForbiddenError for an
 * item id that is not in this site's collection (malformed, nonexistent, or another site's).
 */
export class ItemsService {
  constructor(
    private readonly stores: Pick<Stores, 'forSite'>,
    private readonly retention: TrashRetention = DEFAULT_TRASH_RETENTION,
  ) {}

  /** Newest first. */
  async list(siteId: string, collection: string, page: Page): Promise<PageOf<ItemView>> {
    const { site, record } = await this.collection(siteId, collection);
    const { records, total } = await site.items.list(record.id, page);
    return { records: records.map((item) => toItemView(item, collection)), total };
  }

  async get(siteId: string, collection: string, id: string): Promise<ItemView> {
    const { site, record } = await this.collection(siteId, collection);
    const item = await site.items.findById(record.id, id);
    if (!item) throw recordNotInSite();
    return toItemView(item, collection);
  }

  /**
   * With `context.operationId`, creating again returns the item the first call created, even once it left the
   * collection since (trashed, deleted, restored): a repeat never makes a second item. A first run
   * (`context.firstRun`) is one insert; any other looks for the operation's first revision before anything else, so
   * that a repeat is answered even where the first run would now be refused (its collection trashed since).
   */
  async create(siteId: string, collection: string, data: Record<string, unknown>, context: WriteContext = {}): Promise<ItemView> {
    const { operationId } = context;
    if (operationId !== undefined && context.firstRun !== true) {
      const creation = await this.stores.forSite(siteId).revisions.findByOperation(operationId, 'created');
      // Its item may still be here or long gone: either way the operation happened, and this is what it made.
      if (creation) return creationView(creation, collection);
    }
    const { site, record } = await this.collection(siteId, collection);
    const { set } = validateItemData(record.fields, data, 'create');
    // A repeat whose first revision is not materialised yet (its run stopped before the relay) meets the item's
    // operation id in the unique index: the store answers with that item.
    const item = await site.items.insert(record, set, operationId, revisionMeta(context));
    return toItemView(item, collection);
  }

  /** Merges the given fields into the item; null removes an optional field's value. */
  async update(
    siteId: string,
    collection: string,
    id: string,
    data: Record<string, unknown>,
    context: WriteContext = {},
  ): Promise<ItemView> {
    const { site, record } = await this.collection(siteId, collection);
    const changes = validateItemData(record.fields, data, 'patch');
    const item = await site.items.update(record, id, changes, revisionMeta(context));
    if (!item) throw recordNotInSite();
    return toItemView(item, collection);
  }

  /**
   * Deletes the item into the trash (restorable for the retention, by the trash or its revisions). The entry is
   * written first (`pending`) and shows once the deletion is done; a crash in between leaves an entry the purge
   * task finishes or drops (services/trash-purge.ts).
   */
  async remove(siteId: string, collection: string, id: string, context: WriteContext = {}): Promise<void> {
    const { site, record } = await this.collection(siteId, collection);
    const item = await site.items.findById(record.id, id);
    if (!item) throw recordNotInSite();
    const title = itemTitle(record.fields, item.data);
    const entry = await site.trash.create({
      kind: 'item',
      collectionId: record.id,
      collection,
      itemId: item.id,
      ...(title !== undefined ? { title } : {}),
      definition: { itemId: item.id },
      items: 1,
      deletedBy: deleterOf(context),
      ...trashWindow(this.retention),
    });
    if (!(await site.items.delete(record, id, revisionMeta(context)))) {
      // Someone else deleted it in between (and trashed it themselves).
      await site.trash.remove(entry.id);
      throw recordNotInSite();
    }
    await site.trash.complete(entry.id);
  }

  private async collection(siteId: string, name: string): Promise<{ site: SiteStores; record: CollectionRecord }> {
    const site = this.stores.forSite(siteId);
    const record = await site.collections.findByName(name);
    if (!record) throw collectionNotFound(name);
    return { site, record };
  }
}

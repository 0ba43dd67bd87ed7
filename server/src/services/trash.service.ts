// The site's trash: list what was deleted, and restore it (the collection under its old id with its
// items, the field with its values, or the item under its id from its last revision). Restores are
// audited; a collection's and a field's emit `content-changed` (kind `trash`), an item's its own `created`.
import {
  type ActorRef,
  ConflictError,
  type Field,
  ForbiddenError,
  type TrashEntryView,
  type TrashKind,
  type TrashRestoreResult,
} from '@lumibase/shared';
import type { AuditRepository } from '../store/ai/audit.store.js';
import type { Page, PageOf } from '../store/object-id.js';
import { recordNotInSite } from '../store/record-not-in-site.js';
import type { Stores } from '../store/stores.js';
import { THIS_PROCESS, type TrashRecord } from '../store/trash.store.js';
import type { TrashedCollectionDefinition } from './collections.service.js';
import type { FieldsService } from './fields.service.js';
import { RevisionsService } from './revisions.service.js';
import { DEFAULT_TRASH_RETENTION } from './trash-retention.js';

export interface TrashServiceOptions {
  stores: Pick<Stores, 'forSite'>;
  fields: FieldsService;
  audit: (siteId: string) => AuditRepository;
  clock?: () => Date;
  /** Who holds the restores this service claims; one per process (tests stand in for a second server). */
  processId?: string;
  /** TRASH_RETENTION_DAYS, which GET /trash tells (default 30). */
  retentionDays?: number;
  /** Restores a trashed item's last revision (default: one over the same stores and audit). */
  revisions?: Pick<RevisionsService, 'restore'>;
}

/** What a caller may see and restore of the trash: collections and fields with the schema, items with the content. */
export interface TrashAccess {
  kinds: readonly TrashKind[];
}

function cannotRestore(kind: TrashKind): ForbiddenError {
  const capability = kind === 'item' ? 'content:write' : 'schema:write';
  return new ForbiddenError({ message: `Missing capability: ${capability}`, reason: 'missing-capability' });
}

/** The restores under way in this process, by holder, site and entry: a second one is refused at once. */
const restoresUnderWay = new Set<string>();

function restoreUnderWay(): ConflictError {
  return new ConflictError({ message: 'This trash entry is being restored by another request; it leaves the trash once that finishes' });
}

function toTrashEntryView(record: TrashRecord): TrashEntryView {
  return {
    id: record.id,
    kind: record.kind,
    collection: record.collection,
    ...(record.field !== undefined ? { field: record.field } : {}),
    ...(record.itemId !== undefined ? { itemId: record.itemId } : {}),
    ...(record.title !== undefined ? { title: record.title } : {}),
    items: record.items,
    deletedBy: record.deletedBy,
    deletedAt: record.deletedAt,
    expiresAt: record.expiresAt,
  };
}

export class TrashService {
  constructor(private readonly options: TrashServiceOptions) {}

  /** How long a deletion stays restorable, in days (may be fractional). */
  get retentionDays(): number {
    return this.options.retentionDays ?? DEFAULT_TRASH_RETENTION.retentionDays;
  }

  private now(): Date {
    return (this.options.clock ?? (() => new Date()))();
  }

  /** Newest first; only deletions that are complete and not past their retention, of the kinds the caller may see. */
  async list(siteId: string, page: Page, access?: TrashAccess): Promise<PageOf<TrashEntryView>> {
    const { records, total } = await this.options.stores.forSite(siteId).trash.list(page, this.now(), access?.kinds);
    return { records: records.map(toTrashEntryView), total };
  }

  /**
   * Puts the entry back. Not in this site (or expired, or purged, or restored meanwhile) → the usual
   * not-in-site 403; another restore of it under way → ConflictError, so two at once write one audit
   * entry; the name taken again meanwhile → ConflictError, and the entry stays in the trash. A
   * restore interrupted by an error or a crash can be repeated (a crashed server's after the lease):
   * each step sees what an earlier attempt did.
   */
  async restore(siteId: string, id: string, actor: ActorRef, access?: TrashAccess): Promise<TrashRestoreResult> {
    if (access) {
      const entry = await this.options.stores.forSite(siteId).trash.findDone(id);
      if (entry && !access.kinds.includes(entry.kind)) throw cannotRestore(entry.kind);
    }
    const holder = this.options.processId ?? THIS_PROCESS;
    const key = `${holder}/${siteId}/${id}`;
    if (restoresUnderWay.has(key)) throw restoreUnderWay();
    restoresUnderWay.add(key);
    try {
      return await this.restoreClaimed(siteId, id, actor, holder);
    } finally {
      restoresUnderWay.delete(key);
    }
  }

  private async restoreClaimed(siteId: string, id: string, actor: ActorRef, holder: string): Promise<TrashRestoreResult> {
    const site = this.options.stores.forSite(siteId);
    const now = this.now();
    const entry = await site.trash.claimForRestore(id, now, holder);
    if (!entry) throw (await site.trash.heldByAnotherRestore(id, now, holder)) ? restoreUnderWay() : recordNotInSite();
    let collection: string;
    try {
      collection =
        entry.kind === 'collection'
          ? await this.restoreCollection(siteId, entry)
          : entry.kind === 'field'
            ? await this.restoreField(siteId, entry)
            : await this.restoreItem(siteId, entry, actor);
    } catch (error) {
      if (error instanceof ConflictError) await site.trash.release(entry.id);
      throw error;
    }
    const result: TrashRestoreResult = {
      id: entry.id,
      kind: entry.kind,
      collection,
      ...(entry.field !== undefined ? { field: entry.field } : {}),
      ...(entry.itemId !== undefined ? { itemId: entry.itemId } : {}),
      ...(entry.title !== undefined ? { title: entry.title } : {}),
      items: entry.items,
    };
    // An item's restore is audited as the revision restore it is (revisions.service.ts).
    if (entry.kind === 'item') {
      await site.trash.remove(entry.id);
      return result;
    }
    // Audited before the entry goes: a crash in between repeats the audit entry rather than losing it.
    await this.options.audit(siteId).append({
      action: 'restored',
      actor: { id: actor.id, name: actor.name },
      detail: { trash: result },
      createdAt: this.now().toISOString(),
    });
    await site.trash.remove(entry.id);
    return result;
  }

  private async restoreCollection(siteId: string, entry: TrashRecord): Promise<string> {
    const definition = entry.definition as TrashedCollectionDefinition;
    const outcome = await this.options.stores.forSite(siteId).collections.restore(
      {
        id: entry.collectionId,
        name: entry.collection,
        ...(definition.label !== undefined ? { label: definition.label } : {}),
        fields: definition.fields,
      },
      [
        { kind: 'collection', action: 'created', collection: entry.collection },
        { kind: 'trash', action: 'deleted', collection: entry.collection, id: entry.id },
      ],
    );
    if (outcome === 'name-taken') {
      throw new ConflictError({
        message: `A collection named "${entry.collection}" exists again; delete it (it goes to the trash too), then restore this one`,
      });
    }
    return entry.collection;
  }

  /**
   * The item's last revision (its data when deleted) made current again, under its id. Repeatable: an item already
   * back (an earlier attempt got that far) is left as it is.
   */
  private async restoreItem(siteId: string, entry: TrashRecord, actor: ActorRef): Promise<string> {
    const site = this.options.stores.forSite(siteId);
    const itemId = entry.itemId ?? (entry.definition as { itemId: string }).itemId;
    const collection = await site.collections.findById(entry.collectionId);
    if (!collection) {
      throw new ConflictError({
        message: `The collection ${entry.collection} this item belonged to was deleted; restore the collection first`,
      });
    }
    if (await site.items.findById(collection.id, itemId)) return collection.name;
    const revisions =
      this.options.revisions ??
      new RevisionsService({
        stores: this.options.stores,
        audit: this.options.audit,
        ...(this.options.clock ? { clock: this.options.clock } : {}),
      });
    await site.items.settle(itemId); // its deletion's revision is the last one
    const last = await site.revisions.latest(collection.id, itemId);
    await revisions.restore(siteId, collection.name, itemId, last, actor);
    return collection.name;
  }

  private async restoreField(siteId: string, entry: TrashRecord): Promise<string> {
    const { collection } = await this.options.fields.putBack(siteId, entry.collectionId, entry.definition as Field, entry.id);
    return collection;
  }
}

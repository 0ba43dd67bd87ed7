// The site's trash: list what was deleted, and restore it (the collection under its old id with its
// items, or the field with its values). Restores are audited and emit `content-changed` (kind `trash`).
import { type ActorRef, ConflictError, type Field, type TrashEntryView, type TrashRestoreResult } from '@lumibase/shared';
import type { AuditRepository } from '../store/ai/audit.store.js';
import type { Page, PageOf } from '../store/object-id.js';
import { recordNotInSite } from '../store/record-not-in-site.js';
import type { Stores } from '../store/stores.js';
import { THIS_PROCESS, type TrashRecord } from '../store/trash.store.js';
import type { TrashedCollectionDefinition } from './collections.service.js';
import type { FieldsService } from './fields.service.js';

export interface TrashServiceOptions {
  stores: Pick<Stores, 'forSite'>;
  fields: FieldsService;
  audit: (siteId: string) => AuditRepository;
  clock?: () => Date;
  /** Who holds the restores this service claims; one per process (tests stand in for a second server). */
  processId?: string;
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
    items: record.items,
    deletedBy: record.deletedBy,
    deletedAt: record.deletedAt,
    expiresAt: record.expiresAt,
  };
}

export class TrashService {
  constructor(private readonly options: TrashServiceOptions) {}

  private now(): Date {
    return (this.options.clock ?? (() => new Date()))();
  }

  /** Newest first; only deletions that are complete and not past their retention. */
  async list(siteId: string, page: Page): Promise<PageOf<TrashEntryView>> {
    const { records, total } = await this.options.stores.forSite(siteId).trash.list(page, this.now());
    return { records: records.map(toTrashEntryView), total };
  }

  /**
   * Puts the entry back. Not in this site (or expired, or purged, or restored meanwhile) → the usual
   * not-in-site 403; another restore of it under way → ConflictError, so two at once write one audit
   * entry; the name taken again meanwhile → ConflictError, and the entry stays in the trash. A
   * restore interrupted by an error or a crash can be repeated (a crashed server's after the lease):
   * each step sees what an earlier attempt did.
   */
  async restore(siteId: string, id: string, actor: ActorRef): Promise<TrashRestoreResult> {
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
      collection = entry.kind === 'collection' ? await this.restoreCollection(siteId, entry) : await this.restoreField(siteId, entry);
    } catch (error) {
      if (error instanceof ConflictError) await site.trash.release(entry.id);
      throw error;
    }
    const result: TrashRestoreResult = {
      id: entry.id,
      kind: entry.kind,
      collection,
      ...(entry.field !== undefined ? { field: entry.field } : {}),
      items: entry.items,
    };
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

  private async restoreField(siteId: string, entry: TrashRecord): Promise<string> {
    const { collection } = await this.options.fields.putBack(siteId, entry.collectionId, entry.definition as Field, entry.id);
    return collection;
  }
}

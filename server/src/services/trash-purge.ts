// Across sites, every so often: purges trash past its retention (a collection's items and their
// revisions, a field's values; an item's entry only, its revisions following REVISION_RETENTION_DAYS),
// and finishes or drops deletions a crash left half-done.
import type { Field } from '@lumibase/shared';
import type { Types } from 'mongoose';
import { PeriodicTask } from '../infrastructure/periodic-task.js';
import type { Logger } from '../logger.js';
import type { ApprovalStore } from '../store/ai/approval.store.js';
import { expireRevisions } from '../store/item-revision.store.js';
import type { SiteStores, Stores } from '../store/stores.js';

export interface TrashPurgeOptions {
  stores: Pick<Stores, 'forSite' | 'models'>;
  logger: Logger;
  clock?: () => Date;
  /** A pending entry younger than this may be a deletion still under way: left alone. */
  pendingGraceMs?: number;
  /** A site's approvals, whose impacts' previewed values of a purged field or collection go too. */
  approvals?: (siteId: string) => Pick<ApprovalStore, 'forgetValues'>;
  /** Revisions older than this go (each live item's newest stays); 0 or absent keeps them forever. */
  revisionRetentionDays?: number;
}

const BATCH = 200;
const DEFAULT_GRACE_MS = 60_000;
const DAY_MS = 86_400_000;

interface Found {
  _id: Types.ObjectId;
  siteId: Types.ObjectId;
}

export class TrashPurge {
  private readonly task = new PeriodicTask(
    () => this.purge(),
    (error: unknown) => this.options.logger.warn({ err: error }, 'trash purge failed'),
  );

  constructor(private readonly options: TrashPurgeOptions) {}

  /** One pass; returns how many entries it purged. Safe in several processes at once (each entry is claimed). */
  async purge(): Promise<number> {
    const { stores, logger, clock = () => new Date(), pendingGraceMs = DEFAULT_GRACE_MS } = this.options;
    const now = clock();
    const trash = stores.models.trash;
    const pending = await trash
      .find({ state: 'pending', deletedAt: { $lte: new Date(now.getTime() - pendingGraceMs) } }, { _id: 1, siteId: 1 })
      .limit(BATCH)
      .lean<Found[]>();
    for (const { _id, siteId } of pending) await this.settlePending(stores.forSite(siteId.toHexString()), _id.toHexString());

    const due = await trash
      .find({ state: 'done', expiresAt: { $lte: now }, restoringAt: { $exists: false } }, { _id: 1, siteId: 1 })
      .limit(BATCH)
      .lean<Found[]>();
    let purged = 0;
    for (const { _id, siteId } of due) {
      const site = stores.forSite(siteId.toHexString());
      const approvals = this.options.approvals?.(siteId.toHexString());
      const entry = await site.trash.claimForPurge(_id.toHexString(), now);
      if (!entry) continue;
      if (entry.kind === 'collection') {
        // Never the items of a collection that is live again (a restore finished before the claim).
        if (!(await site.collections.findById(entry.collectionId))) {
          await site.items.deleteAll(entry.collectionId);
          await site.revisions.deleteForCollection(entry.collectionId);
          await approvals?.forgetValues(entry.collectionId);
          await site.trash.removeItemsOf(entry.collectionId);
        }
      } else if (entry.kind === 'field') {
        const field = (entry.definition as Field).name;
        await site.items.dropTrashedValues(entry.collectionId, entry.id);
        // Never the values of a field that is live again under the same name (a restore finished before the claim).
        const collection = await site.collections.findById(entry.collectionId);
        if (!collection?.fields.some((candidate) => candidate.name === field)) {
          await site.revisions.dropField(entry.collectionId, field);
          await approvals?.forgetValues(entry.collectionId, field);
        }
      }
      await site.trash.remove(entry.id);
      purged++;
    }
    if (purged > 0) logger.info({ purged }, 'purged expired trash');
    const { revisionRetentionDays = 0 } = this.options;
    if (revisionRetentionDays > 0) {
      const cutoff = new Date(now.getTime() - revisionRetentionDays * DAY_MS);
      const expired = await expireRevisions(stores.models.itemRevisions, stores.models.items, cutoff, BATCH);
      if (expired > 0) logger.info({ expired }, 'deleted revisions past their retention');
    }
    return purged;
  }

  /** A deletion interrupted by a crash: drop the entry if the deletion never happened, else finish it. */
  private async settlePending(site: SiteStores, id: string): Promise<void> {
    const entry = await site.trash.findPending(id);
    if (!entry) return;
    const collection = await site.collections.findById(entry.collectionId);
    if (entry.kind === 'item') {
      // The deletion happened unless the item is still there.
      const itemId = entry.itemId ?? '';
      if (collection && (await site.items.findById(collection.id, itemId))) return site.trash.remove(entry.id);
      return site.trash.complete(entry.id);
    }
    if (entry.kind === 'collection') {
      if (collection) return site.trash.remove(entry.id);
      return site.trash.complete(entry.id, { items: await site.items.count(entry.collectionId) });
    }
    const field = (entry.definition as Field).name;
    if (collection?.fields.some((candidate) => candidate.name === field)) return site.trash.remove(entry.id);
    await site.items.moveFieldToTrash(entry.collectionId, field, entry.id);
    return site.trash.complete(entry.id, { items: await site.items.countTrashedValues(entry.collectionId, entry.id) });
  }

  /** Purges now and then every `intervalMs`; failures are logged and retried on the next tick. */
  start(intervalMs: number): void {
    this.task.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.task.stop();
  }
}

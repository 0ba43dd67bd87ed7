// Undoing a done plan step (docs/API.md, "Runs and plans"): what it created is removed for good — no trash entry, no item
// history left behind —, what it updated or deleted is put back from the item revisions and the trash. Only what the
// step created is removed: a collection or field carries the operation id that created it, and one that does not carry
// the step's (there before the step, or replaced since) is left, which the undo says in words. Each undo runs once
// under its own operation id (run-once.ts), so a worker killed while undoing redoes nothing on redelivery.
import type { SkillName } from '@lumibase/shared';
import { revisionMeta } from '../services/items.service.js';
import type { FieldsService } from '../services/fields.service.js';
import type { RevisionsService } from '../services/revisions.service.js';
import type { TrashService } from '../services/trash.service.js';
import { runOnce } from '../skills/run-once.js';
import { type SkillDependencies, writeContext } from '../skills/skill-dependencies.js';
import type { StepUndo } from '../skills/skill-module.js';
import type { Stores } from '../store/stores.js';
import type { SkillExecutionContext } from '../skills/skill-executors.js';

export interface StepUndoerDependencies extends Pick<SkillDependencies, 'operations' | 'clock'> {
  stores: Pick<Stores, 'forSite'>;
  fields: Pick<FieldsService, 'discard'>;
  revisions: Pick<RevisionsService, 'restore'>;
  trash: Pick<TrashService, 'restore'>;
}

export interface UndoContext extends SkillExecutionContext {
  /** The operation id the step ran under: what it created carries it, and the item revision it wrote names it. */
  stepOperationId: string;
  /** The step's skill, for the ledger. */
  skillName: SkillName;
}

/** Performs one step's undo; answers, in words, what it left because the step had not created it (undefined: nothing). */
export type StepUndoer = (undo: StepUndo, context: UndoContext) => Promise<string | undefined>;

export function createStepUndoer(dependencies: StepUndoerDependencies): StepUndoer {
  return (undo, context) =>
    runOnce({ dependencies, context, skillName: context.skillName, perform: () => perform(dependencies, undo, context) });
}

async function perform(dependencies: StepUndoerDependencies, undo: StepUndo, context: UndoContext): Promise<string | undefined> {
  const { siteId, actor } = context;
  const site = dependencies.stores.forSite(siteId);
  switch (undo.kind) {
    case 'discard-collection': {
      const record = await site.collections.findByName(undo.name);
      // Gone already (an earlier run of this undo): nothing to do.
      if (!record) return;
      // Not the one the step created (replaced meanwhile): not ours to remove.
      if (record.operationId !== context.stepOperationId)
        return `the collection ${undo.name} was not created by this step (it was replaced since), so it was left as it is, with its items`;
      // Its items (and their history) first, while the collection still names them: a crash in between is redone.
      await site.items.deleteAll(record.id);
      await site.revisions.deleteForCollection(record.id);
      await site.trash.removeItemsOf(record.id);
      const deleted = await site.collections.delete(undo.name, { id: record.id });
      if (deleted) await site.collections.finishDelete(deleted);
      return;
    }
    case 'discard-field': {
      const discard = await dependencies.fields.discard(siteId, undo.collection, undo.field, context.stepOperationId);
      if (discard === 'discarded') return;
      return `the field ${undo.field} of ${undo.collection} was not added by this step (it was already there), so it was left as it is, with its values`;
    }
    case 'discard-item': {
      const record = await site.collections.findByName(undo.collection);
      if (!record) return;
      // Deleted as any item is (its tombstone carries the `deleted` event the Studio needs), but into no trash; then its history goes.
      await site.items.delete(record, undo.id, revisionMeta(writeContext(context)));
      await site.items.settle(undo.id);
      await site.revisions.deleteForItem(record.id, undo.id);
      return;
    }
    case 'restore-revision': {
      // The revision the step wrote; the one before it is what the item held.
      const change = await site.revisions.findByOperation(context.stepOperationId);
      if (!change || change.revision <= 1) return;
      await dependencies.revisions.restore(siteId, undo.collection, undo.id, change.revision - 1, actor);
      return;
    }
    case 'restore-trash': {
      const entry = await site.trash.findLatest({
        kind: undo.trashKind,
        collection: undo.collection,
        ...(undo.field !== undefined ? { field: undo.field } : {}),
        ...(undo.itemId !== undefined ? { itemId: undo.itemId } : {}),
      });
      // None: an earlier run of this undo restored it already.
      if (!entry) return;
      await dependencies.trash.restore(siteId, entry.id, actor);
      return;
    }
  }
}

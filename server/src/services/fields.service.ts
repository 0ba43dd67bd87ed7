// Fields of a collection: add, change, remove — each a compare-and-set on the collection's revision.
import {
  type ContentChange,
  ConflictError,
  detailsFromZodIssues,
  Field,
  type FieldChanges,
  NotFoundError,
  ValidationError,
} from '@lumibase/shared';
import type { CollectionRecord } from '../store/collection.store.js';
import type { SiteStores, Stores } from '../store/stores.js';
import { collectionNotFound } from './collections.service.js';
import { DEFAULT_TRASH_RETENTION, deleterOf, type TrashRetention, trashWindow } from './trash-retention.js';
import type { WriteContext } from './write-context.js';

/** Concurrent edits of one collection's fields retry this often before giving up with a conflict. */
const MAX_ATTEMPTS = 20;

/** A short random pause after losing a race, so the losers do not collide again in lockstep. */
const backOff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * (attempt + 1)));

/** Same definition (the name aside): what a retried add would have written. */
function sameField(a: Field, b: Field): boolean {
  return a.type === b.type && a.required === b.required && JSON.stringify(a.options ?? null) === JSON.stringify(b.options ?? null);
}

/** The fields' operations as the edit leaves them: the kept fields keep theirs (by name), the added one gets its own. */
function fieldOperationsAfter(current: CollectionRecord, next: FieldEdit): Record<string, string> {
  const operations: Record<string, string> = {};
  for (const field of next.fields) {
    const operation = current.fieldOperations[field.name];
    if (operation !== undefined) operations[field.name] = operation;
  }
  if (next.addedBy !== undefined) operations[next.change.field] = next.addedBy;
  return operations;
}

function fieldNotFound(collection: string, field: string): NotFoundError {
  return new NotFoundError({ message: `Field "${field}" not found in collection "${collection}"` });
}

/** A new field list and the change it makes, which owes a `content-changed` event. */
interface FieldEdit {
  fields: Field[];
  change: { action: 'created' | 'updated' | 'deleted'; field: string };
  /** More events the change owes (the trash's). */
  also?: ContentChange[];
  /** The trash entry whose field this puts back. */
  restoredTrashId?: string;
  /** The operation adding the field `change` names: stored with it, so a plan's undo knows the field is its step's. */
  addedBy?: string;
}

/** What a discard did: removed the field its operation added, or left a field that operation did not add. */
export type Discard = 'discarded' | 'not-added-by-it';

export class FieldsService {
  constructor(
    private readonly stores: Pick<Stores, 'forSite'>,
    private readonly retention: TrashRetention = DEFAULT_TRASH_RETENTION,
  ) {}

  /**
   * ConflictError when the collection already has a field of that name. With
   * `context.operationId` (a caller that may retry), finding exactly this field already there is
   * taken as the earlier attempt's success and answered as such. A field it adds carries the operation id, so an undo
   * of that operation removes only a field it added (`discard`), never one that was there before.
   */
  async add(siteId: string, collection: string, field: Field, context: WriteContext = {}): Promise<Field> {
    const site = this.stores.forSite(siteId);
    await this.edit(site, collection, (current) => {
      const existing = current.fields.find((candidate) => candidate.name === field.name);
      if (existing && context.operationId !== undefined && sameField(existing, field)) return null;
      if (existing) throw new ConflictError({ message: `Field "${field.name}" already exists in collection "${collection}"` });
      return {
        fields: [...current.fields, field],
        change: { action: 'created', field: field.name },
        ...(context.operationId !== undefined ? { addedBy: context.operationId } : {}),
      };
    });
    return field;
  }

  /**
   * Applies `changes` to the field; the result must be a valid field (an enum keeps needing
   * values). Renaming moves the field's values in every item. Values already stored are kept as
   * they are when the type changes; only writes are checked against the new type.
   */
  async update(siteId: string, collection: string, fieldName: string, changes: FieldChanges, _context: WriteContext = {}): Promise<Field> {
    const site = this.stores.forSite(siteId);
    let updated: Field | undefined;
    const record = await this.edit(site, collection, (current) => {
      const existing = current.fields.find((field) => field.name === fieldName);
      if (!existing) throw fieldNotFound(collection, fieldName);
      const parsed = Field.safeParse({ ...existing, ...changes });
      if (!parsed.success)
        throw new ValidationError({ message: 'The changed field is not valid', details: detailsFromZodIssues(parsed.error.issues) });
      const next = parsed.data;
      if (next.name !== fieldName && current.fields.some((field) => field.name === next.name)) {
        throw new ConflictError({ message: `Field "${next.name}" already exists in collection "${collection}"` });
      }
      updated = next;
      return {
        fields: current.fields.map((field) => (field.name === fieldName ? next : field)),
        change: { action: 'updated', field: next.name },
      };
    });
    const result = updated!;
    if (result.name !== fieldName) await site.items.renameField(record.id, fieldName, result.name);
    return result;
  }

  /**
   * Moves the field to the trash: the trash entry first (`pending`), then the field leaves the
   * schema, then its values move out of the items' data under the entry's id (idempotent), then the
   * entry is complete. The purge task finishes what a crash interrupted (services/trash-purge.ts).
   */
  async remove(siteId: string, collection: string, fieldName: string, context: WriteContext = {}): Promise<void> {
    const site = this.stores.forSite(siteId);
    const current = await site.collections.findByName(collection);
    if (!current) throw collectionNotFound(collection);
    const field = current.fields.find((candidate) => candidate.name === fieldName);
    if (!field) throw fieldNotFound(collection, fieldName);
    const entry = await site.trash.create({
      kind: 'field',
      collectionId: current.id,
      collection,
      field: fieldName,
      definition: field,
      items: await site.items.countWithField(current.id, fieldName),
      deletedBy: deleterOf(context),
      ...trashWindow(this.retention),
    });
    let removed: Field = field;
    let record: CollectionRecord;
    try {
      record = await this.edit(site, collection, (latest) => {
        const existing = latest.fields.find((candidate) => candidate.name === fieldName);
        if (latest.id !== current.id || !existing) throw fieldNotFound(collection, fieldName);
        removed = existing;
        return {
          fields: latest.fields.filter((candidate) => candidate.name !== fieldName),
          change: { action: 'deleted', field: fieldName },
          also: [{ kind: 'trash', action: 'created', collection, field: fieldName, id: entry.id }],
        };
      });
    } catch (error) {
      await site.trash.remove(entry.id);
      throw error;
    }
    await site.items.moveFieldToTrash(record.id, fieldName, entry.id);
    await site.trash.complete(entry.id, { definition: removed, items: await site.items.countTrashedValues(record.id, entry.id) });
  }

  /**
   * Removes a field for good, with its values, leaving nothing in the trash: a plan's undo of the field its step added
   * under `operationId` (approvals/undo-step.ts). A field of that name the operation did not add (there before it, or
   * added again by someone since) is left as it is, with its values: 'not-added-by-it'. Repeatable: a field already
   * gone has its values unset again; a collection gone is left.
   */
  async discard(siteId: string, collection: string, fieldName: string, operationId: string): Promise<Discard> {
    const site = this.stores.forSite(siteId);
    let record: CollectionRecord;
    let notOurs = false;
    try {
      record = await this.edit(site, collection, (current) => {
        if (!current.fields.some((candidate) => candidate.name === fieldName)) return null;
        notOurs = current.fieldOperations[fieldName] !== operationId;
        if (notOurs) return null;
        return {
          fields: current.fields.filter((candidate) => candidate.name !== fieldName),
          change: { action: 'deleted', field: fieldName },
        };
      });
    } catch (error) {
      if (error instanceof NotFoundError) return 'discarded';
      throw error;
    }
    if (notOurs) return 'not-added-by-it';
    await site.items.unsetField(record.id, fieldName);
    return 'discarded';
  }

  /**
   * Puts a trashed field back into its collection (by the collection's id) and its values into the
   * items. ConflictError when the collection is gone or has a field of that name again. Idempotent:
   * the collection remembers the entries it got fields back from, so a resumed restore goes on.
   */
  async putBack(siteId: string, collectionId: string, field: Field, entryId: string): Promise<{ collection: string }> {
    const site = this.stores.forSite(siteId);
    const owner = await site.collections.findById(collectionId);
    if (!owner)
      throw new ConflictError({ message: 'The field’s collection no longer exists: restore the collection from the trash first' });
    await this.edit(site, owner.name, (current) => {
      if (current.id !== collectionId)
        throw new ConflictError({ message: 'The field’s collection no longer exists: restore the collection from the trash first' });
      if (current.restoredTrashIds.includes(entryId)) return null;
      if (current.fields.some((candidate) => candidate.name === field.name)) {
        throw new ConflictError({
          message: `Collection "${owner.name}" has a field named "${field.name}" again; rename or delete it, then restore`,
        });
      }
      return {
        fields: [...current.fields, field],
        change: { action: 'created', field: field.name },
        also: [{ kind: 'trash', action: 'deleted', collection: owner.name, field: field.name, id: entryId }],
        restoredTrashId: entryId,
      };
    });
    await site.items.restoreFieldFromTrash(collectionId, entryId, field.name);
    return { collection: owner.name };
  }

  /**
   * Reads the collection, computes its new field list (null: keep it), and writes it only if nobody changed the
   * fields in between; otherwise starts over, so concurrent edits never overwrite each other.
   */
  private async edit(
    site: SiteStores,
    collection: string,
    edit: (current: CollectionRecord) => FieldEdit | null,
  ): Promise<CollectionRecord> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const current = await site.collections.findByName(collection);
      if (!current) throw collectionNotFound(collection);
      const next = edit(current);
      if (next === null) return current;
      const written = await site.collections.replaceFields(collection, current.revision, next.fields, next.change, {
        ...(next.also ? { also: next.also } : {}),
        ...(next.restoredTrashId !== undefined ? { restoredTrashId: next.restoredTrashId } : {}),
        fieldOperations: fieldOperationsAfter(current, next),
      });
      if (written) return written;
      await backOff(attempt);
    }
    throw new ConflictError({ message: `Collection "${collection}" is being changed by someone else; try again` });
  }
}

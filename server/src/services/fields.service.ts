// Fields of a collection: add, change, remove — each a compare-and-set on the collection's revision.
import { ConflictError, detailsFromZodIssues, Field, type FieldChanges, NotFoundError, ValidationError } from '@lumibase/shared';
import type { CollectionRecord } from '../store/collection.store.js';
import type { SiteStores, Stores } from '../store/stores.js';
import { collectionNotFound } from './collections.service.js';
import type { WriteContext } from './write-context.js';

/** Concurrent edits of one collection's fields retry this often before giving up with a conflict. */
const MAX_ATTEMPTS = 20;

/** A short random pause after losing a race, so the losers do not collide again in lockstep. */
const backOff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * (attempt + 1)));

/** Same definition (the name aside): what a retried add would have written. */
function sameField(a: Field, b: Field): boolean {
  return a.type === b.type && a.required === b.required && JSON.stringify(a.options ?? null) === JSON.stringify(b.options ?? null);
}

function fieldNotFound(collection: string, field: string): NotFoundError {
  return new NotFoundError({ message: `Field "${field}" not found in collection "${collection}"` });
}

/** A new field list and the change it makes, which owes a `content-changed` event. */
interface FieldEdit {
  fields: Field[];
  change: { action: 'created' | 'updated' | 'deleted'; field: string };
}

export class FieldsService {
  constructor(private readonly stores: Pick<Stores, 'forSite'>) {}

  /**
   * ConflictError when the collection already has a field of that name. With
   * `context.operationId` (a caller that may retry), finding exactly this field already there is
   * taken as the earlier attempt's success and answered as such.
   */
  async add(siteId: string, collection: string, field: Field, context: WriteContext = {}): Promise<Field> {
    const site = this.stores.forSite(siteId);
    await this.edit(site, collection, (current) => {
      const existing = current.fields.find((candidate) => candidate.name === field.name);
      if (existing && context.operationId !== undefined && sameField(existing, field)) return null;
      if (existing) throw new ConflictError({ message: `Field "${field.name}" already exists in collection "${collection}"` });
      return { fields: [...current.fields, field], change: { action: 'created', field: field.name } };
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

  /** Removes the field and its values from every item of the collection. */
  async remove(siteId: string, collection: string, fieldName: string, _context: WriteContext = {}): Promise<void> {
    const site = this.stores.forSite(siteId);
    const record = await this.edit(site, collection, (current) => {
      if (!current.fields.some((field) => field.name === fieldName)) throw fieldNotFound(collection, fieldName);
      return { fields: current.fields.filter((field) => field.name !== fieldName), change: { action: 'deleted', field: fieldName } };
    });
    await site.items.unsetField(record.id, fieldName);
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
      const written = await site.collections.replaceFields(collection, current.revision, next.fields, next.change);
      if (written) return written;
      await backOff(attempt);
    }
    throw new ConflictError({ message: `Collection "${collection}" is being changed by someone else; try again` });
  }
}

// CMS collections of one site: list, read, create, delete (with their items).
import { type CollectionView, type Field, NotFoundError, ValidationError } from '@lumibase/shared';
import type { CollectionRecord } from '../store/collection.store.js';
import type { Page, PageOf } from '../store/object-id.js';
import type { Stores } from '../store/stores.js';
import type { WriteContext } from './write-context.js';

export interface NewCollection {
  name: string;
  label?: string | undefined;
  fields?: Field[] | undefined;
}

export function toCollectionView(record: CollectionRecord): CollectionView {
  return { name: record.name, ...(record.label !== undefined ? { label: record.label } : {}), fields: record.fields };
}

export function collectionNotFound(name: string): NotFoundError {
  return new NotFoundError({ message: `Collection "${name}" not found` });
}

/** Field names must be unique within a collection; reports each repeat at its index. */
export function assertUniqueFieldNames(fields: readonly Field[]): void {
  const seen = new Set<string>();
  const details = fields.flatMap((field, index) => {
    const repeated = seen.has(field.name);
    seen.add(field.name);
    return repeated ? [{ path: `fields.${index}.name`, message: `Duplicate field name "${field.name}"` }] : [];
  });
  if (details.length > 0) throw new ValidationError({ message: 'Field names must be unique', details });
}

export class CollectionsService {
  constructor(private readonly stores: Pick<Stores, 'forSite'>) {}

  async list(siteId: string, page: Page): Promise<PageOf<CollectionView>> {
    const { records, total } = await this.stores.forSite(siteId).collections.list(page);
    return { records: records.map(toCollectionView), total };
  }

  /** Every collection of the site, for callers that need the whole schema (the Copilot's listCollections). */
  async listAll(siteId: string): Promise<CollectionView[]> {
    return (await this.stores.forSite(siteId).collections.listAll()).map(toCollectionView);
  }

  /** NotFoundError when the site has no collection of that name. */
  async get(siteId: string, name: string): Promise<CollectionView> {
    const record = await this.stores.forSite(siteId).collections.findByName(name);
    if (!record) throw collectionNotFound(name);
    return toCollectionView(record);
  }

  /**
   * ConflictError when the name is taken in this site; ValidationError for repeated field names.
   * With `context.operationId`, a retry of the create that made the collection returns it.
   */
  async create(siteId: string, input: NewCollection, context: WriteContext = {}): Promise<CollectionView> {
    const fields = input.fields ?? [];
    assertUniqueFieldNames(fields);
    const record = await this.stores.forSite(siteId).collections.create({
      name: input.name,
      fields,
      ...(input.label !== undefined ? { label: input.label } : {}),
      ...(context.operationId !== undefined ? { operationId: context.operationId } : {}),
    });
    return toCollectionView(record);
  }

  /**
   * Deletes the collection, then its items. Items point at the collection's internal id, so if the
   * second step is interrupted the leftovers are unreachable, even by a new collection of the same name.
   */
  async remove(siteId: string, name: string, _context: WriteContext = {}): Promise<void> {
    const site = this.stores.forSite(siteId);
    const record = await site.collections.delete(name);
    if (!record) throw collectionNotFound(name);
    await site.items.deleteAll(record.id);
    await site.collections.finishDelete(record);
  }
}

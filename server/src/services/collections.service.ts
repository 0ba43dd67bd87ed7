// CMS collections of one site: list, read, create, delete (to the trash, with their items).
import { type CollectionView, type Field, NotFoundError, ValidationError } from '@lumibase/shared';
import type { CollectionRecord } from '../store/collection.store.js';
import type { Page, PageOf } from '../store/object-id.js';
import type { Stores } from '../store/stores.js';
import { DEFAULT_TRASH_RETENTION, deleterOf, type TrashRetention, trashWindow } from './trash-retention.js';
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

/** What a trash entry keeps of a collection besides its id and name. */
export interface TrashedCollectionDefinition {
  label?: string;
  fields: Field[];
}

function definitionOf(record: CollectionRecord): TrashedCollectionDefinition {
  return { ...(record.label !== undefined ? { label: record.label } : {}), fields: record.fields };
}

export class CollectionsService {
  constructor(
    private readonly stores: Pick<Stores, 'forSite'>,
    private readonly retention: TrashRetention = DEFAULT_TRASH_RETENTION,
  ) {}

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
   * Moves the collection to the trash; its items stay where they are, pointing at its internal id,
   * unreachable until a restore puts the collection back under that id. The trash entry is written
   * first (`pending`): a crash at any point leaves either the collection live or an entry that
   * holds it, which the purge task completes (services/trash-purge.ts). The name is free at once.
   */
  async remove(siteId: string, name: string, context: WriteContext = {}): Promise<void> {
    const site = this.stores.forSite(siteId);
    const record = await site.collections.findByName(name);
    if (!record) throw collectionNotFound(name);
    const entry = await site.trash.create({
      kind: 'collection',
      collectionId: record.id,
      collection: name,
      definition: definitionOf(record),
      items: await site.items.count(record.id),
      deletedBy: deleterOf(context),
      ...trashWindow(this.retention),
    });
    const deleted = await site.collections.delete(name, {
      id: record.id,
      also: [{ kind: 'trash', action: 'created', collection: name, id: entry.id }],
    });
    if (!deleted) {
      // Someone else deleted it in between (and trashed it themselves).
      await site.trash.remove(entry.id);
      throw collectionNotFound(name);
    }
    await site.trash.complete(entry.id, { definition: definitionOf(deleted), items: await site.items.count(deleted.id) });
    await site.collections.finishDelete(deleted);
  }
}

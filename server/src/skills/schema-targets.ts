// The targets of schema skills: a collection (by name, with its id when it exists) or a field of one.
import type { ApprovalTarget } from '@lumibase/shared';
import type { SiteView } from './site-view.js';

type CollectionView = NonNullable<Awaited<ReturnType<SiteView['collection']>>>;

export async function collectionTarget(site: SiteView, name: string): Promise<{ record: CollectionView | null; target: ApprovalTarget }> {
  const record = await site.collection(name);
  return {
    record,
    target: { kind: 'collection', collection: name, ...(record && record.plannedBy === undefined ? { collectionId: record.id } : {}) },
  };
}

/** The field is named in the target only while it exists, so its creation or deletion since changes the target. */
export async function fieldTarget(
  site: SiteView,
  collection: string,
  field: string,
): Promise<{ record: CollectionView | null; exists: boolean; target: ApprovalTarget }> {
  const record = await site.collection(collection);
  const exists = record?.fields.some((candidate) => candidate.name === field) ?? false;
  const target: ApprovalTarget = {
    kind: 'field',
    collection,
    // A collection an earlier step of a plan creates is bound by name: it has no id yet.
    ...(record && record.plannedBy === undefined ? { collectionId: record.id } : {}),
    ...(exists ? { field } : {}),
  };
  return { record, exists, target };
}

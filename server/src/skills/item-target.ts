// The identity of the item an approval will change or delete: its collection's id, its id and its revision. The revision
// binds the approval to the content its approver saw: an edit since (or a deletion) changes the target, and the target
// watch expires the approval (docs/API.md, decide rules).
import type { ApprovalTarget } from '@lumibase/shared';
import type { SiteView } from './site-view.js';

export async function itemTarget(
  site: SiteView,
  collection: string,
  id: string,
): Promise<{ target: ApprovalTarget; item: { id: string; revision: number; data: Record<string, unknown> } | null }> {
  const record = await site.collection(collection);
  const item = record ? await site.item(record.id, id) : null;
  const target: ApprovalTarget = {
    kind: 'item',
    collection,
    ...(record ? { collectionId: record.id } : {}),
    ...(item ? { id: item.id, revision: item.revision } : {}),
  };
  return { target, item };
}

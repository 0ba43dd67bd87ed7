// What a run has read of the site's content (docs/API.md, "The gate's tiers and limits"): any executed outcome of a skill
// whose definition says it reads content — listItems, searchItems, aiContentAssist, aiSuggestField, listCollections,
// and the item a write skill returns. A later write in the same run is held at least at the policy's afterContentRead.
import { findSkill, type ReadBefore } from '@lumibase/shared';

export const READ_BEFORE_MAX = 50;

/** A skill whose result carries content or schema text the model reads (its definition's `readsContent`). */
export const readsContent = (skillName: string): boolean => findSkill(skillName)?.readsContent === true;

/**
 * Adds what one executed call read: one entry per item its result names (a list, search results, the item a write
 * returns, the item an assist read), else one for the collection (or the whole schema).
 */
export function noteReads(readBefore: ReadBefore[], skill: string, args: unknown, data: unknown): void {
  const collection =
    typeof (args as { collection?: unknown })?.collection === 'string' ? (args as { collection: string }).collection : undefined;
  const items =
    skill === 'listCollections'
      ? []
      : Array.isArray((data as { items?: unknown })?.items)
        ? (data as { items: unknown[] }).items
        : Array.isArray(data)
          ? data
          : typeof (data as { id?: unknown })?.id === 'string'
            ? [data]
            : [];
  // An item may name its own collection (search results span collections); else the call's collection.
  const read = items.flatMap((item) => {
    const { id, collection: own } = (item ?? {}) as { id?: unknown; collection?: unknown };
    return typeof id === 'string' ? [{ id, collection: typeof own === 'string' ? own : collection }] : [];
  });
  const itemId = typeof (args as { itemId?: unknown })?.itemId === 'string' ? (args as { itemId: string }).itemId : undefined;
  if (itemId && !read.some((entry) => entry.id === itemId)) read.push({ id: itemId, collection });
  const entries =
    read.length > 0
      ? read.map(({ id, collection: of }) => ({ skill, ...(of ? { collection: of } : {}), id }))
      : [{ skill, ...(collection ? { collection } : {}) }];
  for (const entry of entries) if (readBefore.length < READ_BEFORE_MAX) readBefore.push(entry);
}

// What the model read before it proposed a dangerous call (approval `context.readBefore`), in one sentence.
import type { ReadBefore } from '@lumibase/shared';

const SKILL_READS: Record<string, string> = {
  listItems: 'a list',
  searchItems: 'a search',
  aiContentAssist: 'a draft',
  aiSuggestField: 'a field suggestion',
  listCollections: 'the collections and fields',
  createItem: 'a new item',
  updateItem: 'a changed item',
};

/**
 * "Proposed after reading 3 items of posts and 1 item of pages": items counted once per collection (by id);
 * a read that named no item says what it was ("a search of pages"). Undefined when nothing was read.
 */
export function describeReadBefore(readBefore: readonly ReadBefore[] | undefined): string | undefined {
  if (!readBefore || readBefore.length === 0) return undefined;
  const groups = new Map<string, { collection: string | undefined; ids: Set<string>; skills: Set<string> }>();
  for (const entry of readBefore) {
    const key = entry.collection ?? '';
    const group = groups.get(key) ?? { collection: entry.collection, ids: new Set<string>(), skills: new Set<string>() };
    if (entry.id !== undefined) group.ids.add(entry.id);
    else group.skills.add(entry.skill);
    groups.set(key, group);
  }
  const parts: string[] = [];
  for (const { collection, ids, skills } of groups.values()) {
    if (ids.size > 0) {
      parts.push(`${ids.size} ${ids.size === 1 ? 'item' : 'items'}${collection === undefined ? '' : ` of ${collection}`}`);
      continue;
    }
    for (const skill of skills) {
      const what = Object.hasOwn(SKILL_READS, skill) ? SKILL_READS[skill] : `the ${skill} results`;
      parts.push(`${what} of ${collection ?? 'site content'}`);
    }
  }
  return `Proposed after reading ${joinWords(parts)}`;
}

function joinWords(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

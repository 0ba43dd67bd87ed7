// How an impact preview reads: counted nouns, an item's title, a bounded sample, how long a deletion stays restorable.
import type { InspectContext } from './skill-module.js';

/** Items and values listed in a preview; the summary counts all of them. */
export const PREVIEW_LIMIT = 10;

export const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

export function titleOf(data: Record<string, unknown>): string | undefined {
  for (const key of ['title', 'name', 'label', 'slug']) {
    const value = data[key];
    if (typeof value === 'string' && value.length > 0) return value.slice(0, 200);
  }
  return undefined;
}

/** A deletion that goes to the trash says for how long it can be restored. */
export function restorable({ restorableDays }: InspectContext): { restorableDays?: number } {
  return restorableDays !== undefined ? { restorableDays } : {};
}

// How an impact preview reads: counted nouns, an item's title, a bounded sample, how long a deletion stays restorable.
import type { InspectContext } from './skill-module.js';

/** Items and values listed in a preview; the summary counts all of them. */
export const PREVIEW_LIMIT = 10;

export const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** A deletion that goes to the trash says for how long it can be restored. */
export function restorable({ restorableDays }: InspectContext): { restorableDays?: number } {
  return restorableDays !== undefined ? { restorableDays } : {};
}

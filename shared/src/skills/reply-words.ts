// The words the echo planner's reply sentences are made of (a definition's `reply`): they read only what they find,
// since a result or the model's arguments may hold anything.
import type { UncheckedArguments } from './define-skill.js';

/** A tool's result data as a sentence reads it: an object, or {} when it is not one. */
export type ReplyData = Record<string, unknown>;

const NAMES_SHOWN = 5;

/** The value when it is a non-empty string, else undefined. */
export const replyText = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The value when it is a plain object, else {}. */
export const replyRecord = (value: unknown): ReplyData =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as ReplyData) : {};

/** The value when it is an array, else []. */
export const replyList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** "1 item", "3 items" */
export const replyCount = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** "a, b, c and 4 more" */
export function replyNames(values: readonly string[]): string {
  const shown = values.slice(0, NAMES_SHOWN).join(', ');
  return values.length > NAMES_SHOWN ? `${shown} and ${values.length - NAMES_SHOWN} more` : shown;
}

/** An item as people name it: its title or name when it has one, else its id. */
export function itemTitle(item: unknown): string {
  const { id, data } = replyRecord(item);
  const values = replyRecord(data);
  const title = replyText(values.title) ?? replyText(values.name) ?? replyText(values.headline) ?? replyText(values.label);
  return title ? `“${title}”` : `item ${replyText(id) ?? '(no id)'}`;
}

/** The collection a write's result names, else the call's, else "the collection". */
export const replyCollection = (data: ReplyData, args: UncheckedArguments): string =>
  replyText(data.collection) ?? replyText(args.collection) ?? 'the collection';

/** The reply of a skill with no sentence of its own for this (the echo planner then says "Done." or "That"). */
export const noReply = (): undefined => undefined;

// The trash: deleted collections (with their items), fields (with their values) and items, restorable for
// TRASH_RETENTION_DAYS (docs/API.md, "Revisions, trash and undo").
import { z } from 'zod';
import { ActorRef } from '../approvals.js';
import { ListMeta } from './envelope.js';

export const TRASH_KINDS = ['collection', 'field', 'item'] as const;
export const TrashKind = z.enum(TRASH_KINDS);
export type TrashKind = z.infer<typeof TrashKind>;

export const TrashEntryView = z.object({
  id: z.string(),
  kind: TrashKind,
  /** The collection's name (for a field or an item: the collection it belonged to). */
  collection: z.string(),
  /** Only for `kind: "field"`. */
  field: z.string().optional(),
  /** Only for `kind: "item"`: the item's id (restored under it) and its title when it was deleted. */
  itemId: z.string().optional(),
  title: z.string().optional(),
  /** Items that went with a collection, items holding a value of a field, or 1 for an item. */
  items: z.number().int().min(0),
  deletedBy: ActorRef,
  deletedAt: z.iso.datetime(),
  /** When the entry and what it holds are purged. */
  expiresAt: z.iso.datetime(),
});
export type TrashEntryView = z.infer<typeof TrashEntryView>;

/** `retentionDays`: TRASH_RETENTION_DAYS, how long a deletion stays restorable (may be a fraction of a day). */
export const TrashListResponse = z.object({
  data: z.array(TrashEntryView),
  meta: ListMeta.extend({ retentionDays: z.number().positive() }),
});
export type TrashListResponse = z.infer<typeof TrashListResponse>;

/** What a restore brought back: the collection, field or item, and how many items or values with it. */
export const TrashRestoreResult = z.object({
  id: z.string(),
  kind: TrashKind,
  collection: z.string(),
  field: z.string().optional(),
  itemId: z.string().optional(),
  title: z.string().optional(),
  items: z.number().int().min(0),
});
export type TrashRestoreResult = z.infer<typeof TrashRestoreResult>;
export const TrashRestoreResponse = z.object({ data: TrashRestoreResult });
export type TrashRestoreResponse = z.infer<typeof TrashRestoreResponse>;

/** The `:id` route parameter (a malformed id is then the usual not-in-site 403, like any record id). */
export const TrashIdParam = z.string().min(1).max(200);

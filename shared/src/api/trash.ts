// The trash: deleted collections (with their items) and fields (with their values), restorable for
// TRASH_RETENTION_DAYS (API.md, "Revisions, trash and undo").
import { z } from 'zod';
import { ActorRef } from '../approvals.js';
import { ListMeta } from './envelope.js';

export const TRASH_KINDS = ['collection', 'field'] as const;
export const TrashKind = z.enum(TRASH_KINDS);
export type TrashKind = z.infer<typeof TrashKind>;

export const TrashEntryView = z.object({
  id: z.string(),
  kind: TrashKind,
  /** The collection's name (for a field: the collection it belonged to). */
  collection: z.string(),
  /** Only for `kind: "field"`. */
  field: z.string().optional(),
  /** Items that went with a collection, or items holding a value of a field. */
  items: z.number().int().min(0),
  deletedBy: ActorRef,
  deletedAt: z.iso.datetime(),
  /** When the entry and what it holds are purged. */
  expiresAt: z.iso.datetime(),
});
export type TrashEntryView = z.infer<typeof TrashEntryView>;

export const TrashListResponse = z.object({ data: z.array(TrashEntryView), meta: ListMeta });
export type TrashListResponse = z.infer<typeof TrashListResponse>;

/** What a restore brought back: the collection or field, and how many items or values with it. */
export const TrashRestoreResult = z.object({
  id: z.string(),
  kind: TrashKind,
  collection: z.string(),
  field: z.string().optional(),
  items: z.number().int().min(0),
});
export type TrashRestoreResult = z.infer<typeof TrashRestoreResult>;
export const TrashRestoreResponse = z.object({ data: TrashRestoreResult });
export type TrashRestoreResponse = z.infer<typeof TrashRestoreResponse>;

/** The `:id` route parameter (a malformed id is then the usual not-in-site 403, like any record id). */
export const TrashIdParam = z.string().min(1).max(200);

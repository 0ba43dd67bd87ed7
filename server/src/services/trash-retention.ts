// How long deletions stay restorable (TRASH_RETENTION_DAYS), and the clock that dates them.
import type { ActorRef } from '@lumibase/shared';
import { SYSTEM_ACTOR } from '../store/item-revision.store.js';
import type { WriteContext } from './write-context.js';

export interface TrashRetention {
  /** May be fractional (tests use a fraction of a day). */
  retentionDays: number;
  clock?: () => Date;
}

export const DEFAULT_TRASH_RETENTION: TrashRetention = { retentionDays: 30 };

const DAY_MS = 24 * 60 * 60 * 1000;

/** When a deletion happening now goes to the trash, and when it leaves it for good. */
export function trashWindow(retention: TrashRetention): { deletedAt: Date; expiresAt: Date } {
  const deletedAt = (retention.clock ?? (() => new Date()))();
  return { deletedAt, expiresAt: new Date(deletedAt.getTime() + retention.retentionDays * DAY_MS) };
}

/** Who a trash entry says deleted it: the writer, or the system when nobody is named. */
export function deleterOf(context: WriteContext): ActorRef {
  return context.actor ? { id: context.actor.id, name: context.actor.name } : SYSTEM_ACTOR;
}

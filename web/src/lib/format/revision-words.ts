// How revisions, restores and the audit chain read in the Studio: the words for a revision's change and channel, and
// why a restore was refused (a 409 names the fields that no longer fit).
import type { AuditVerification, ItemRevisionView, UndoRef } from '@lumibase/shared';
import { type ApiError, describeError } from '../api/index.js';
import { plural } from './values.js';

export const REVISION_ACTION_WORDS: Record<ItemRevisionView['action'], string> = {
  created: 'Created',
  updated: 'Updated',
  deleted: 'Deleted',
  restored: 'Restored',
};

export const REVISION_VIA_WORDS: Record<ItemRevisionView['via'], string> = {
  rest: 'Studio or API',
  copilot: 'Copilot',
  approval: 'Approved request',
  restore: 'Restore',
};

/** The title of a restored item (its title or name field), if the answer has one. */
export function restoredTitle(restored: unknown): string | undefined {
  const data = (restored as { data?: Record<string, unknown> } | undefined)?.data;
  if (typeof data !== 'object' || data === null) return undefined;
  const title = ['title', 'name', 'headline'].map((key) => data[key]).find((value) => typeof value === 'string' && value.trim() !== '');
  return title as string | undefined;
}

/** "Undone: “Hello” in posts is back as it was (revision 2)"; without a title, "the item in posts". */
export function undoneText(ref: UndoRef, title?: string): string {
  return `Undone: ${title ? `“${title}”` : 'the item'} in ${ref.collection} is back as it was (revision ${ref.revision})`;
}

/** Why a restore (or an undo) did not happen, with the fields a 409 names. */
export function restoreErrorText(error: ApiError): string {
  const details = error.details.map((detail) => `${detail.path ? `${detail.path}: ` : ''}${detail.message}`).join('; ');
  if (error.status === 409) return details ? `${error.message} — ${details}` : error.message;
  if (error.status === 403) return "You can't restore items in this site: it needs permission to write content.";
  return details ? `${describeError(error)} — ${details}` : describeError(error);
}

/** The audit chain's status in one sentence. */
export function chainText(verification: AuditVerification): string {
  return verification.valid
    ? `The audit chain is intact: ${plural(verification.entries, 'entry', 'entries')} verified.`
    : `The audit chain is broken at entry #${verification.brokenAt}: an entry was changed, removed or inserted outside the API (${plural(verification.entries, 'entry', 'entries')} checked).`;
}

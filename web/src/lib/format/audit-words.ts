// The audit log's detail column in words ("Rejected: “not now”", "Expired: nobody decided in time"); the entry's JSON
// stays available behind a "details" toggle. Details are data from the server: their shape is checked, never assumed.
import type { AuditEntryJson } from '@lumibase/shared';
import { callSentence, inWords, skillLabel } from './approval-outcome.js';

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const stop = (value: string) => value.replace(/[.!]$/, '');

/** The skill column: its label ("Delete a collection"), never the internal name. */
export function auditSkillWords(entry: AuditEntryJson): string {
  return entry.skillName ? skillLabel(entry.skillName) : '';
}

/** One or two plain sentences about an entry's detail; '' when there is nothing to say. */
export function auditDetailWords(entry: AuditEntryJson): string {
  const detail = entry.detail;
  if (!isObject(detail)) return '';
  const call = entry.skillName && isObject(detail.arguments) ? callSentence(entry.skillName, detail.arguments) : undefined;
  switch (entry.action) {
    case 'expired':
      return detail.reason === 'target_changed'
        ? 'What it would change was deleted, recreated or changed after the request.'
        : 'Nobody decided in time.';
    case 'rejected':
      return text(detail.reason) ? `Reason: “${detail.reason as string}”` : '';
    case 'edited': {
      const before = entry.skillName ? callSentence(entry.skillName, detail.originalArguments) : undefined;
      const after = entry.skillName ? callSentence(entry.skillName, detail.arguments) : undefined;
      return before && after ? `Changed from “${stop(before)}” to “${stop(after)}”.` : 'The approver changed the arguments.';
    }
    case 'execution_failed':
    case 'denied': {
      const why = text(detail.message) ?? text(detail.error);
      return [call ? `${stop(call)}.` : '', why ? inWords(why.endsWith('.') ? why : `${why}.`) : ''].filter(Boolean).join(' ');
    }
    case 'restored':
      if (text(detail.collection))
        return `Restored an item of ${detail.collection as string} to revision ${String(detail.restoredRevision)}.`;
      return isObject(detail.trash) ? 'Restored from the trash.' : 'Restored.';
    case 'policy_changed': {
      const skills = isObject(detail.skills) ? Object.entries(detail.skills) : [];
      const parts = skills.flatMap(([name, change]) =>
        isObject(change) && text(change.to) ? [`“${skillLabel(name)}” now ${modeWords(change.to as string)}`] : [],
      );
      if (isObject(detail.selfApproval))
        parts.push(detail.selfApproval.to ? 'requesters may approve their own requests' : 'someone other than the requester must approve');
      return parts.length > 0 ? `${parts.join('; ')}.` : 'The Copilot policy changed.';
    }
    default:
      if (detail.alreadyPending === true) return 'The same request was already waiting for approval.';
      return call ? `${stop(call)}.` : '';
  }
}

function modeWords(mode: string): string {
  switch (mode) {
    case 'auto':
      return 'runs at once';
    case 'warn':
      return 'runs at once and tells the admins';
    case 'ask':
      return 'needs an approval';
    case 'off':
      return 'is turned off';
    default:
      return mode;
  }
}

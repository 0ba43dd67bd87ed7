// The wording of what the Studio tells people about approvals: decisions seen on the dashboard, the outcome of this
// tab's own decisions, and why a decision was refused. Pure functions; the sync engine (approvals.svelte.ts) says when.
import type { ApprovalJson } from '@lumibase/shared';
import { type ApiError, describeError } from '../api/index.js';
import type { ToastTone } from './toasts.svelte.js';

/** What a card says about this tab's last decision on it (a failure, a queue that was down). */
export interface CardNote {
  tone: 'warning' | 'danger';
  text: string;
}

export interface ApprovalToast {
  tone: ToastTone;
  title: string;
  message?: string;
}

/** "Bea rejected deleteCollection: “why”", or "You approved … in another tab." for the signed-in user. */
export function decidedText(approval: ApprovalJson, userId: string | undefined): string {
  const by = approval.decidedBy;
  const you = by && by.id === userId;
  const who = you ? 'You' : (by?.name ?? 'Another admin');
  const where = you ? ' in another tab' : '';
  const skill = approval.skillName;
  switch (approval.status) {
    case 'rejected':
      return `${who} rejected ${skill}${where}${approval.reason ? `: “${approval.reason}”` : '.'}`;
    case 'executing':
      return `${who} approved ${skill}${where}; it is running.`;
    default:
      return `${who} approved ${skill}${where}.`;
  }
}

/** This tab decided, and another admin's decision won the race. */
export function lostRaceText(latest: ApprovalJson | undefined, userId: string | undefined): string {
  return `Someone else decided first: ${latest ? decidedText(latest, userId) : 'this approval is no longer pending.'}`;
}

/** The toast for this tab's own decision once it is settled. */
export function settledToast(approval: ApprovalJson): ApprovalToast | undefined {
  const { skillName } = approval;
  if (approval.status === 'approved') return { tone: 'success', title: `Approved: ${skillName} ran`, message: approval.context.message };
  if (approval.status === 'rejected') return { tone: 'info', title: `Rejected: ${skillName}`, message: approval.context.message };
  return undefined;
}

/** An approved skill ran, failed, and left the approval pending. */
export function failedRunNote(lastError: string): CardNote {
  return { tone: 'warning', text: `It ran and failed: ${lastError}. The approval is still pending, so you can try again.` };
}

/** Why the server refused this tab's decision (other than a lost race). */
export function refusalNote(error: ApiError): CardNote {
  if (error.status === 503)
    return { tone: 'warning', text: 'The job queue is unavailable, so nothing ran. The approval is still pending; try again in a moment.' };
  if (error.status === 403)
    return { tone: 'danger', text: "You can't decide this approval: it needs approvals:decide and every capability its skill requires." };
  return { tone: 'danger', text: describeError(error) };
}

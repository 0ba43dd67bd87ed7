// The wording of what the Studio tells people about approvals: decisions seen on the dashboard, the outcome of this
// tab's own decisions, and why a decision was refused. Pure functions; the sync engine (approvals.svelte.ts) says when.
import { type ApprovalJson, isApproved, isExpired, isRejected } from '@lumibase/shared';
import { type ApiError, describeError } from '../api/index.js';
import { callSentence, expiryReason, isWithdrawal, outcomeSentence, skillLabel } from '../format/approval-outcome.js';
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

/** What a request was, in words: "Deletes the collection posts and all of its items", else the skill's label. */
export function requestWords(approval: ApprovalJson): string {
  const [first] = approval.steps;
  if (first && approval.steps.length > 1) {
    const opening = callSentence(first.skillName, first.arguments);
    const lead = opening ? `${opening.charAt(0).toLowerCase()}${opening.slice(1).replace(/[.!]$/, '')}, and ` : '';
    return `A plan of ${approval.steps.length} steps (${lead}${approval.steps.length - 1} more)`;
  }
  const sentence = callSentence(approval.skillName, approval.arguments);
  return sentence ? sentence.replace(/[.!]$/, '') : skillLabel(approval.skillName);
}

/** "Bea Admin rejected: Deletes the collection posts; …", "You approved … in another tab.", the same words as the requester's. */
export function decidedText(approval: ApprovalJson, userId: string | undefined): string {
  const said = outcomeSentence(approval, userId) ?? 'no longer pending.';
  // The signed-in user decided elsewhere: "Rejected by you in another tab; nothing was changed."
  return `${requestWords(approval)} — ${said.replace(/\bby you\b/, 'by you in another tab')}`;
}

/** This tab decided, and the approval had already ended: another admin decided first, its requester withdrew it, or it expired. */
export function lostRaceText(latest: ApprovalJson | undefined, userId: string | undefined): string {
  if (!latest) return 'Nothing was done: this approval is no longer pending.';
  if (isExpired(latest.status)) return `Nothing was done: it expired — ${expiryReason(latest)}.`;
  if (isWithdrawal(latest)) return `Nothing was done: ${decidedText(latest, userId)}`;
  return `Someone else decided first: ${decidedText(latest, userId)}`;
}

/** This tab's click was on an older version: the card now shows the current one. */
export function staleNote(latest: ApprovalJson): CardNote {
  const why = latest.lastError
    ? `someone tried it meanwhile and it failed (${latest.lastError})`
    : 'its impact or arguments changed meanwhile';
  return { tone: 'warning', text: `Nothing was done: this request changed since you saw it — ${why}. Review it below and decide again.` };
}

/** The toast for this tab's own decision once it is settled. */
export function settledToast(approval: ApprovalJson): ApprovalToast | undefined {
  const what = requestWords(approval);
  if (isApproved(approval.status)) return { tone: 'success', title: `Approved and done: ${what}`, message: approval.context.message };
  if (isRejected(approval.status)) return { tone: 'info', title: `Rejected: ${what}`, message: approval.context.message };
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
  if (error.status === 403 && error.message.startsWith('Someone other than the requester'))
    return { tone: 'danger', text: `${error.message}: this site's Copilot policy does not let you approve your own request.` };
  if (error.status === 403)
    return {
      tone: 'danger',
      text: "You can't decide this approval: it needs permission to decide approvals and every permission the change itself needs.",
    };
  return { tone: 'danger', text: describeError(error) };
}

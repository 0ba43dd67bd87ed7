// The approval lifecycle, stated once: which status may follow which, what is settled, what is
// still waiting for a human. The server's named operations (server/src/approvals/) and the Studio
// both read it; adding a status means adding it here and to the table.
import type { ApprovalStatus } from '../approvals.js';

/** For each status, the statuses it may move to. A status with none is final. */
export const APPROVAL_TRANSITIONS: Readonly<Record<ApprovalStatus, readonly ApprovalStatus[]>> = {
  // Approved (a job is queued), rejected or withdrawn, or expired (time ran out, target changed).
  pending: ['executing', 'rejected', 'expired'],
  // The job ran (approved), failed and may be retried (pending), or found its target changed (expired).
  executing: ['approved', 'pending', 'expired'],
  approved: [],
  rejected: [],
  expired: [],
};

export function canTransition(from: ApprovalStatus, to: ApprovalStatus): boolean {
  return APPROVAL_TRANSITIONS[from].includes(to);
}

/** Nothing will change any more: no decision, no execution. */
export function isSettled(status: ApprovalStatus): boolean {
  return APPROVAL_TRANSITIONS[status].length === 0;
}

/** Waiting for a human's decision (counted by the pending badge); after a failed run, waiting for a retry. */
export function isPending(status: ApprovalStatus): status is 'pending' {
  return status === 'pending';
}

/** Approved, its job running (a plan's steps advance while it is). */
export function isExecuting(status: ApprovalStatus): status is 'executing' {
  return status === 'executing';
}

/** Settled: approved and carried out. */
export function isApproved(status: ApprovalStatus): status is 'approved' {
  return status === 'approved';
}

/** Settled: rejected by an approver, or withdrawn by its requester; nothing was done. */
export function isRejected(status: ApprovalStatus): status is 'rejected' {
  return status === 'rejected';
}

/** Settled: time ran out, or its target changed; nothing was done. */
export function isExpired(status: ApprovalStatus): status is 'expired' {
  return status === 'expired';
}

export const SETTLED_STATUSES: readonly ApprovalStatus[] = (Object.keys(APPROVAL_TRANSITIONS) as ApprovalStatus[]).filter(isSettled);

/**
 * The statuses an approval may have had just before a change that left it in `status`: those the table lets
 * move to it, and `status` itself while it is not settled (an edit or impact refresh keeps it pending, a plan's
 * step keeps it executing; each is a change of its own).
 */
export function statusesBefore(status: ApprovalStatus): ApprovalStatus[] {
  const from = (Object.keys(APPROVAL_TRANSITIONS) as ApprovalStatus[]).filter((before) => canTransition(before, status));
  return isSettled(status) ? from : [...from, status];
}

/**
 * How one change of an approval moves a viewer's pending count, from what the viewer knew of it: its status
 * before (`previous`), or, when the viewer never saw it, only what the table implies. It counted as pending
 * before only if it was seen pending, or if every status it could have had before is pending; so an approval
 * never seen pending that settles (executing → expired, say) takes nothing off the count.
 */
export function pendingCountDelta(previous: ApprovalStatus | undefined, next: ApprovalStatus): number {
  const wasPending = previous !== undefined ? isPending(previous) : statusesBefore(next).every(isPending);
  return Number(isPending(next)) - Number(wasPending);
}

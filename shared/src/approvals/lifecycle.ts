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

/** Waiting for a human's decision (counted by the pending badge). */
export function isAwaitingDecision(status: ApprovalStatus): boolean {
  return status === 'pending';
}

export const SETTLED_STATUSES: readonly ApprovalStatus[] = (Object.keys(APPROVAL_TRANSITIONS) as ApprovalStatus[]).filter(isSettled);

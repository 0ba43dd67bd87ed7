// A plan's named operations (docs/API.md, "Runs and plans"): its steps' progress while it runs, and its roll-back. Each is
// one compare-and-set on the approval (revision + 1, pushed as approval-decided), like approval-operations.ts.
import type { Approval, ApprovalStep } from '@lumibase/shared';
import type { NewAuditEntry } from '../store/ai/audit.store.js';
import type { ApprovalRepository } from '../store/ai/approval.store.js';
import { outcomeNote } from './note-approval-outcome.js';

type Approvals = Pick<ApprovalRepository, 'transition'>;

/** executing → executing with the steps as they now stand; `audit`: what the change owes (execution_failed when a step failed). */
export function recordSteps(
  approvals: Approvals,
  approval: Approval,
  { steps, at, failed }: { steps: ApprovalStep[]; at: Date; failed?: { step: number; error: string } },
) {
  return approvals.transition(approval.id, {
    from: 'executing',
    to: 'executing',
    at,
    revision: approval.revision,
    set: { steps },
    ...(failed
      ? {
          owes: (next: Approval) => ({
            audit: {
              action: 'execution_failed' as const,
              skillName: next.skillName,
              approvalId: next.id,
              actor: next.decidedBy ?? next.requestedBy,
              detail: { attempt: next.attempts, step: failed.step, message: failed.error },
              createdAt: at.toISOString(),
            },
          }),
        }
      : {}),
  });
}

/**
 * The `rolled_back` audit entry of a plan whose done steps were undone, whatever its status after: which steps were
 * undone (numbers from 1) and, in words, what their undo left because those steps had not created it.
 */
export function rolledBackAudit(approval: Approval, { lastError, at }: { lastError: string; at: Date }): NewAuditEntry {
  const left = approval.steps.flatMap((step, index) =>
    step.status === 'undone' && step.undoNote !== undefined ? [{ step: index + 1, note: step.undoNote }] : [],
  );
  return {
    action: 'rolled_back',
    skillName: approval.skillName,
    approvalId: approval.id,
    actor: approval.decidedBy ?? approval.requestedBy,
    detail: {
      undone: approval.steps.flatMap((step, index) => (step.status === 'undone' ? [index + 1] : [])),
      ...(left.length > 0 ? { left } : {}),
      lastError,
    },
    createdAt: at.toISOString(),
  };
}

/** executing → pending after the done steps were undone: lastError names the failed step; audited `rolled_back`. */
export function rolledBack(approvals: Approvals, approval: Approval, { lastError, at }: { lastError: string; at: Date }) {
  return approvals.transition(approval.id, {
    from: 'executing',
    to: 'pending',
    at,
    revision: approval.revision,
    set: { lastError },
    unset: ['decidedBy', 'decidedAt'],
    owes: (pending) => ({
      audit: rolledBackAudit({ ...pending, decidedBy: approval.decidedBy ?? approval.requestedBy }, { lastError, at }),
      note: outcomeNote(pending, at),
    }),
  });
}

// The approval lifecycle's named operations: each is one compare-and-set (shared/src/approvals/lifecycle.ts
// says which moves exist) that writes, in the same document, the `approval-decided` event, the audit entry
// and the conversation note it owes; the outbox relay materialises them once. Nothing else calls `transition`.
import type { ActorRef, Approval, ApprovalStep, ExpiryReason } from '@lumibase/shared';
import type { PlanApproval } from '../skills/plan-approval.js';
import type { ApprovalRepository } from '../store/ai/approval.store.js';
import type { Failure } from './describe-failure.js';
import { rolledBackAudit } from './plan-operations.js';
import { outcomeNote } from './note-approval-outcome.js';

/** The actor of an expiry nobody decided: the system. */
export const SYSTEM_ACTOR = { id: 'system', name: 'LumiBase' };

type Approvals = Pick<ApprovalRepository, 'transition'>;

/** Who ran an execution: the decider, or the requester of an approval decided before deciders were kept. */
const runner = (approval: Approval): ActorRef => approval.decidedBy ?? approval.requestedBy;

/** pending → rejected by `actor` (a withdrawal when it is the requester). Null when it was no longer at `approval.revision`. */
export function reject(approvals: Approvals, approval: Approval, { actor, reason, at }: { actor: ActorRef; reason?: string; at: Date }) {
  return approvals.transition(approval.id, {
    from: 'pending',
    to: 'rejected',
    at,
    revision: approval.revision,
    set: { decidedBy: actor, decidedAt: at.toISOString(), ...(reason ? { reason } : {}) },
    owes: (rejected) => ({
      audit: {
        action: 'rejected',
        skillName: rejected.skillName,
        approvalId: rejected.id,
        actor,
        ...(reason ? { detail: { reason } } : {}),
        createdAt: at.toISOString(),
      },
      note: outcomeNote(rejected, at),
    }),
  });
}

/**
 * pending → pending with the impact as it now is (a plan's, with its `steps` carrying each step's): the approver saw
 * less than would happen. The request stays the same one (identical requests still find it).
 */
export function refreshImpact(
  approvals: Approvals,
  approval: Approval,
  { impact, steps, at }: { impact: Approval['impact']; steps?: ApprovalStep[]; at: Date },
) {
  return approvals.transition(approval.id, {
    from: 'pending',
    to: 'pending',
    at,
    revision: approval.revision,
    set: { impact, ...(steps ? { steps } : {}) },
    ...(impact ? {} : { unset: ['impact'] }),
  });
}

/** An editor's new arguments, with the target and impact they were inspected to have. */
export interface ApprovalEdit {
  arguments: Record<string, unknown>;
  target: Approval['target'];
  impact: Approval['impact'];
}

/**
 * pending → pending with the edited arguments, their target and impact: a new revision that runs nothing. The model's
 * proposal stays in `originalArguments` (from the first edit on), `editedBy` names the editor, audited `edited`.
 */
export function edit(approvals: Approvals, approval: Approval, { actor, at, edit }: { actor: ActorRef; at: Date; edit: ApprovalEdit }) {
  return approvals.transition(approval.id, {
    from: 'pending',
    to: 'pending',
    at,
    revision: approval.revision,
    set: {
      arguments: edit.arguments,
      // A plan cut down to one step keeps the model's proposal in originalSteps.
      originalArguments: approval.originalSteps ? approval.originalArguments : (approval.originalArguments ?? approval.arguments),
      editedBy: actor,
      target: edit.target,
      impact: edit.impact,
    },
    unset: [...(edit.target ? [] : ['target' as const]), ...(edit.impact ? [] : ['impact' as const])],
    owes: (edited) => ({
      audit: {
        action: 'edited',
        skillName: approval.skillName,
        approvalId: approval.id,
        actor,
        detail: { revision: edited.revision, previousArguments: approval.arguments, arguments: edit.arguments },
        createdAt: at.toISOString(),
      },
    }),
  });
}

/** A step as the model proposed it: its call, target and impact, planned. */
const proposed = ({ id, skillName, arguments: args, target, impact }: ApprovalStep): ApprovalStep => ({
  ...(id !== undefined ? { id } : {}),
  skillName,
  arguments: args,
  ...(target ? { target } : {}),
  ...(impact ? { impact } : {}),
  status: 'planned',
});

const callsOf = (steps: readonly ApprovalStep[]) => steps.map((step) => ({ skillName: step.skillName, arguments: step.arguments }));

/**
 * pending → pending with a plan's steps edited (some removed, `removed` counted from 0 in the old plan): the approval's
 * fields as planApproval shows the steps left (a plan, or one step). The model's steps stay in `originalSteps` (from
 * the first edit on), `editedBy` names the editor, audited `edited`. Runs nothing.
 */
export function editPlan(
  approvals: Approvals,
  approval: Approval,
  { actor, at, plan, removed }: { actor: ActorRef; at: Date; plan: PlanApproval; removed: number[] },
) {
  return approvals.transition(approval.id, {
    from: 'pending',
    to: 'pending',
    at,
    revision: approval.revision,
    set: {
      skillName: plan.skillName,
      arguments: plan.arguments,
      target: plan.target,
      impact: plan.impact,
      steps: plan.steps,
      originalSteps: approval.originalSteps ?? approval.steps.map(proposed),
      editedBy: actor,
    },
    unset: [
      ...(plan.target ? [] : ['target' as const]),
      ...(plan.impact ? [] : ['impact' as const]),
      ...(plan.steps ? [] : ['steps' as const]),
    ],
    owes: (edited) => ({
      audit: {
        action: 'edited',
        skillName: approval.skillName,
        approvalId: approval.id,
        actor,
        detail: {
          revision: edited.revision,
          previousSteps: callsOf(approval.steps),
          steps: callsOf(edited.steps),
          ...(removed.length > 0 ? { removedSteps: removed.map((index) => index + 1) } : {}),
        },
        createdAt: at.toISOString(),
      },
    }),
  });
}

/**
 * pending → executing, attempts + 1, decided by `actor`: runs exactly what this revision shows. A plan approved again
 * after a roll-back starts with every step planned (the attempt's operation ids are new: run-plan.ts).
 */
export function startExecution(approvals: Approvals, approval: Approval, { actor, at }: { actor: ActorRef; at: Date }) {
  return approvals.transition(
    approval.id,
    {
      from: 'pending',
      to: 'executing',
      at,
      revision: approval.revision,
      set: {
        decidedBy: actor,
        decidedAt: at.toISOString(),
        ...(approval.steps.length > 1 && approval.steps.some((step) => step.status !== 'planned')
          ? {
              steps: approval.steps.map(({ result: _result, error: _error, undoNote: _note, ...step }) => ({
                ...step,
                status: 'planned' as const,
              })),
            }
          : {}),
      },
      incrementAttempts: true,
    },
    approval,
  );
}

/** executing → pending when the execution could not even be queued: nothing ran, so attempts - 1 and nothing is audited. */
export function requeue(approvals: Approvals, approval: Approval, { lastError, at }: { lastError: string; at: Date }) {
  return approvals.transition(approval.id, {
    from: 'executing',
    to: 'pending',
    at,
    set: { lastError },
    unset: ['decidedBy', 'decidedAt'],
    revertAttempt: true,
  });
}

export type ExecutionOutcome = { ok: true; result: unknown } | { ok: false; failure: Failure };

/**
 * executing → approved (with its result) or → pending (with lastError, to be decided again), audited
 * (`approved` / `execution_failed`) and told to its conversation. Null when something else settled it first.
 */
export function settle(approvals: Approvals, approval: Approval, { outcome, at }: { outcome: ExecutionOutcome; at: Date }) {
  const actor = runner(approval);
  if (outcome.ok) {
    return approvals.transition(
      approval.id,
      {
        from: 'executing',
        to: 'approved',
        at,
        set: outcome.result === undefined ? {} : { result: outcome.result },
        unset: ['lastError'],
        owes: (approved) => ({
          audit: {
            action: 'approved',
            skillName: approved.skillName,
            approvalId: approved.id,
            actor: runner(approved),
            detail: { attempt: approved.attempts },
            createdAt: at.toISOString(),
          },
          note: outcomeNote(approved, at),
        }),
      },
      approval,
    );
  }
  return approvals.transition(
    approval.id,
    {
      from: 'executing',
      to: 'pending',
      at,
      set: { lastError: outcome.failure.message },
      unset: ['decidedBy', 'decidedAt'],
      owes: (pending) => ({
        audit: {
          action: 'execution_failed',
          skillName: approval.skillName,
          approvalId: approval.id,
          actor,
          detail: { attempt: pending.attempts, ...outcome.failure },
          createdAt: at.toISOString(),
        },
        note: outcomeNote(pending, at),
      }),
    },
    approval,
  );
}

/**
 * pending (time ran out, target changed) or executing (the worker found its target changed) → expired,
 * final, audited once: of two expiries of the same approval (the sweep and a decide) one wins, the other gets null.
 * `rolledBack`: a plan whose done steps were undone first (run-plan.ts) — audited `rolled_back` before `expired`.
 */
export async function expire(
  approvals: Approvals,
  approval: Approval,
  { reason, at, rolledBack }: { reason: ExpiryReason; at: Date; rolledBack?: { lastError: string } },
) {
  if (approval.status !== 'pending' && approval.status !== 'executing') return null;
  return approvals.transition(approval.id, {
    from: approval.status,
    to: 'expired',
    at,
    set: { reason },
    owes: (expired) => ({
      audit: [
        ...(rolledBack ? [rolledBackAudit(expired, { lastError: rolledBack.lastError, at })] : []),
        {
          action: 'expired',
          skillName: approval.skillName,
          approvalId: approval.id,
          actor: SYSTEM_ACTOR,
          detail: { reason, ...(reason === 'ttl' ? { expiresAt: approval.expiresAt } : {}) },
          createdAt: at.toISOString(),
        },
      ],
      note: outcomeNote(expired, at),
    }),
  });
}

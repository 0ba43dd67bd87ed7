// An admin's decision on a pending approval: who may decide, what they saw (revision, target, impact, time
// left), and the compare-and-set that makes one decision win. It runs exactly what that revision shows: edits are
// their own step (edit-approval.ts).
import {
  type ActorRef,
  actorRefOf,
  type Approval,
  type ApprovalDecision,
  type CapabilityHolder,
  canDecideApproval,
  ConflictError,
  deciderCapabilities,
  ForbiddenError,
  isLastEditor,
  isOwnRequest,
  missingCapabilities,
  selfApprovalRefusal,
} from '@lumibase/shared';
import { recordNotInSite } from '../store/record-not-in-site.js';
import type { ApprovalRepository } from '../store/ai/approval.store.js';
import type { PolicyRepository } from '../store/ai/policy.store.js';
import type { ApprovalExecutor } from './approval-executor.js';
import type { ApprovalTargets } from '../skills/approval-targets.js';
import { checkAtDecision } from './impact-at-decision.js';
import { expire, refreshImpact, reject, startExecution } from './approval-operations.js';

export interface Decider extends ActorRef, CapabilityHolder {}

export interface DecideApprovalInput {
  siteId: string;
  approvalId: string;
  decision: ApprovalDecision;
  reason?: string;
  /** The revision the decider saw; another current one → ConflictError. */
  revision?: number;
  decider: Decider;
}

/** The site's approvals, and its policy (may an approver approve their own request?). */
export interface DeciderStores {
  forSite(siteId: string): { approvals: ApprovalRepository; policy: Pick<PolicyRepository, 'get'> };
}

export interface ApprovalDeciderOptions {
  stores: DeciderStores;
  executor: ApprovalExecutor;
  /** Required: a wiring cannot forget target binding (tests that do not bind pass NO_TARGETS). */
  targets: ApprovalTargets;
  clock?: () => Date;
}

export class ApprovalDecider {
  private readonly clock: () => Date;
  private readonly targets: ApprovalTargets;

  constructor(private readonly options: ApprovalDeciderOptions) {
    this.clock = options.clock ?? (() => new Date());
    this.targets = options.targets;
  }

  /**
   * ForbiddenError when the approval is not in this site (whatever the reason: same error), the
   * decider lacks `approvals:decide` or a capability the skill needs, or approves their own request (or their own
   * edit) where the policy forbids it; ConflictError when it
   * is not `pending` any more, is older than the revision given, has expired (its time ran out, its
   * target changed: it becomes `expired`), or its impact grew (refreshed for the approver to see).
   * Returns the approval after the decision (see ApprovalExecutor.execute).
   */
  async decideApproval(input: DecideApprovalInput): Promise<Approval> {
    const { siteId, approvalId, decision, reason, decider } = input;
    const { approvals, policy } = this.options.stores.forSite(siteId);
    const approval = await approvals.get(approvalId);
    if (!approval) throw recordNotInSite();

    mayDecide(decider, approval);
    const at = this.clock();
    await stillPending(approvals, approval, { at, revision: input.revision });
    const actor: ActorRef = actorRefOf(decider);

    // Withdrawing one's own request is always allowed; approving it (or one's own edit) may need someone else (the policy is read only then).
    if (decision === 'approved' && (isOwnRequest(approval, decider.id) || isLastEditor(approval, decider.id))) {
      const refusal = selfApprovalRefusal(approval, decider.id, await policy.get());
      if (refusal) throw new ForbiddenError({ message: refusal, reason: 'self_approval' });
    }

    if (decision === 'rejected') {
      const rejected = await reject(approvals, approval, { actor, at, ...(reason ? { reason } : {}) });
      if (!rejected) throw await conflictAfterRace(approvals, approvalId);
      return rejected;
    }

    // What it would do, taken again (a plan: every step, dry-run against the site as it now is): a target that
    // changed (a name taken meanwhile) expires it; an impact that changed is shown to the approver instead of run.
    const now = await checkAtDecision(this.targets, approval);
    if (now.kind === 'target_changed') {
      await expire(approvals, approval, { reason: 'target_changed', at });
      throw new ConflictError({ message: 'What this approval would change is no longer what was asked about; it has expired' });
    }
    if (now.kind === 'impact_changed') {
      await refreshImpact(approvals, approval, { impact: now.impact, ...(now.steps ? { steps: now.steps } : {}), at });
      throw new ConflictError({ message: 'The impact of this approval changed; review it again' });
    }

    const executing = await startExecution(approvals, approval, { actor, at });
    if (!executing) throw await conflictAfterRace(approvals, approvalId);
    return this.options.executor.execute(executing);
  }
}

/** Deciding (or editing) runs the skill on the decider's authority: they must be able to run it themselves. */
export function mayDecide(decider: Decider, approval: Approval): void {
  // A plan: every capability of every step.
  const undecidable = approval.steps.find((step) => !canDecideApproval(decider, step.skillName));
  if (canDecideApproval(decider, approval.skillName) && !undecidable) return;
  const skillName = undecidable?.skillName ?? approval.skillName;
  throw new ForbiddenError({
    message: `Deciding needs ${missingCapabilities(decider, deciderCapabilities(skillName)).join(', ')}`,
    reason: 'missing_capabilities',
  });
}

/**
 * ConflictError unless the approval is still pending, in time (past its time it becomes `expired` now) and, when the
 * caller names the revision they saw, at that revision.
 */
export async function stillPending(
  approvals: ApprovalRepository,
  approval: Approval,
  { at, revision }: { at: Date; revision: number | undefined },
): Promise<void> {
  if (approval.status !== 'pending') throw notPending(approval);
  if (at.getTime() >= Date.parse(approval.expiresAt)) {
    await expire(approvals, approval, { reason: 'ttl', at });
    throw new ConflictError({ message: 'This approval has expired' });
  }
  if (revision !== undefined && revision !== approval.revision) throw stale();
}

function notPending(approval: Approval): ConflictError {
  return new ConflictError({
    message: approval.status === 'expired' ? 'This approval has expired' : 'This approval is no longer pending',
  });
}

function stale(): ConflictError {
  return new ConflictError({ message: 'This approval changed since you saw it; review it again' });
}

/** The compare-and-set lost: decided by someone else, or changed since it was read. */
export async function conflictAfterRace(approvals: ApprovalRepository, id: string): Promise<ConflictError> {
  const current = await approvals.get(id);
  return current && current.status === 'pending' ? stale() : notPending(current ?? ({ status: 'approved' } as Approval));
}

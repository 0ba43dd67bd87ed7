// An admin's decision on a pending approval: who may decide, and the compare-and-set that makes one decision win.
import { noteApprovalOutcome } from './note-approval-outcome.js';
import {
  type ActorRef,
  type Approval,
  type ApprovalDecision,
  type CapabilityHolder,
  canDecideApproval,
  ConflictError,
  deciderCapabilities,
  ForbiddenError,
  missingCapabilities,
} from '@lumibase/shared';
import { recordNotInSite } from '../store/record-not-in-site.js';
import type { HarnessStores } from '../harness/ai-secure-harness.js';
import type { ApprovalExecutor } from './approval-executor.js';

export interface Decider extends ActorRef, CapabilityHolder {}

export interface DecideApprovalInput {
  siteId: string;
  approvalId: string;
  decision: ApprovalDecision;
  reason?: string;
  decider: Decider;
}

export interface ApprovalDeciderOptions {
  stores: HarnessStores;
  executor: ApprovalExecutor;
  clock?: () => Date;
}

export class ApprovalDecider {
  private readonly clock: () => Date;

  constructor(private readonly options: ApprovalDeciderOptions) {
    this.clock = options.clock ?? (() => new Date());
  }

  /**
   * ForbiddenError when the approval is not in this site (whatever the reason: same error) or the
   * decider lacks `approvals:decide` or a capability the skill needs; ConflictError when it is not
   * `pending` any more. Returns the approval after the decision (see ApprovalExecutor.execute).
   */
  async decideApproval({ siteId, approvalId, decision, reason, decider }: DecideApprovalInput): Promise<Approval> {
    const { approvals, audit, conversations } = this.options.stores.forSite(siteId);
    const approval = await approvals.get(approvalId);
    if (!approval) throw recordNotInSite();

    // Deciding runs the skill on the decider's authority: they must be able to run it themselves.
    if (!canDecideApproval(decider, approval.skillName)) {
      throw new ForbiddenError({
        message: `Deciding needs ${missingCapabilities(decider, deciderCapabilities(approval.skillName)).join(', ')}`,
        reason: 'missing_capabilities',
      });
    }

    const at = this.clock();
    const actor: ActorRef = { id: decider.id, name: decider.name };
    if (decision === 'rejected') {
      const rejected = await approvals.transition(approvalId, {
        from: 'pending',
        to: 'rejected',
        at,
        set: { decidedBy: actor, decidedAt: at, ...(reason ? { reason } : {}) },
      });
      if (!rejected) throw notPending();
      await audit.append({
        action: 'rejected',
        skillName: rejected.skillName,
        approvalId,
        actor,
        ...(reason ? { detail: { reason } } : {}),
        createdAt: at,
      });
      await noteApprovalOutcome({ conversations, approval: rejected, at });
      return rejected;
    }

    const executing = await approvals.transition(approvalId, {
      from: 'pending',
      to: 'executing',
      at,
      set: { decidedBy: actor, decidedAt: at },
      incrementAttempts: true,
    });
    if (!executing) throw notPending();
    return this.options.executor.execute(executing);
  }
}

function notPending(): ConflictError {
  return new ConflictError({ message: 'This approval is no longer pending' });
}

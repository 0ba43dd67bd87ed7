// What a skill-execution job does with its approval: run it if it is still this job's to run, and settle it.
import type { SkillExecutionJob } from '@lumibase/shared';
import { runApproval } from './run-approval.js';
import { runPlan } from './run-plan.js';
import type { SkillExecutors } from '../skills/skill-executors.js';
import type { AiStoreFactory } from '../store/ai/ai-stores.js';
import { type ApprovalTargets, sameTarget } from '../skills/approval-targets.js';
import { expire } from './approval-operations.js';
import type { StepUndoer } from './undo-step.js';

export type JobOutcome = 'approved' | 'pending' | 'skipped' | 'expired';

export class ApprovalJobRunner {
  constructor(
    private readonly options: {
      stores: AiStoreFactory;
      executors: SkillExecutors;
      reportError?: (error: unknown, context: { skillName: string; siteId: string }) => void;
      /** Checks right before running that the target is still the one approved. */
      targets: ApprovalTargets;
      /** Undoes a plan's done steps when a later one fails (undo-step.ts). */
      undo?: StepUndoer;
    },
  ) {}

  /**
   * 'skipped' when the job is stale: the approval is settled already, or was decided again since
   * (another attempt). A re-delivered job of the current attempt runs again; the executors'
   * idempotency under the approval id makes that harmless, and settling is a compare-and-set that
   * owes its one audit entry in the same write, so the audit records one execution.
   *
   * `firstStart`: the queue says this is the decision's own job on its first start (skill-execution.processor.ts).
   */
  async run(
    job: SkillExecutionJob,
    { settleTransient, firstStart = false }: { settleTransient: boolean; firstStart?: boolean },
  ): Promise<JobOutcome> {
    const { approvals, operations } = this.options.stores.forSite(job.siteId);
    const approval = await approvals.get(job.approvalId);
    if (approval?.status !== 'executing' || approval.attempts !== job.attempt) return 'skipped';
    const { targets } = this.options;
    // A plan of several steps: run step by step, each target checked right before it runs (run-plan.ts).
    if (approval.steps.length > 1) {
      const done = await runPlan({
        approval,
        approvals,
        executors: this.options.executors,
        targets,
        settleTransient,
        ...(this.options.undo ? { undo: this.options.undo } : {}),
        ...(this.options.reportError ? { reportError: this.options.reportError } : {}),
      });
      return done.status === 'approved'
        ? 'approved'
        : done.status === 'pending'
          ? 'pending'
          : done.status === 'expired'
            ? 'expired'
            : 'skipped';
    }
    // Between the decision and now the target may have changed (a collection deleted and recreated).
    // A re-delivered job whose earlier run may have had its effect is not checked: that effect changed it.
    const { target } = await targets.inspect(approval.siteId, approval.skillName, approval.arguments);
    if (!sameTarget(approval.target, target) && !(await operations.claimed(approval.id))) {
      await expire(approvals, approval, { reason: 'target_changed', at: new Date() });
      return 'expired';
    }
    const settled = await runApproval({
      approval,
      approvals,
      executors: this.options.executors,
      // Every attempt of a single skill runs under the approval id: only the first attempt's first start is a first run.
      firstRun: firstStart && approval.attempts === 1,
      settleTransientFailures: settleTransient,
      ...(this.options.reportError ? { reportError: this.options.reportError } : {}),
    });
    return settled.status === 'approved' ? 'approved' : settled.status === 'pending' ? 'pending' : 'skipped';
  }
}

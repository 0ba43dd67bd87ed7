// What a skill-execution job does with its approval: run it if it is still this job's to run, and settle it.
import type { SkillExecutionJob } from '@lumibase/shared';
import { runApproval } from './run-approval.js';
import type { SkillExecutors } from '../harness/skill-executors.js';
import type { AiStoreFactory } from '../store/ai/ai-stores.js';

export type JobOutcome = 'approved' | 'pending' | 'skipped';

export class ApprovalJobRunner {
  constructor(
    private readonly options: {
      stores: AiStoreFactory;
      executors: SkillExecutors;
      reportError?: (error: unknown, context: { skillName: string; siteId: string }) => void;
    },
  ) {}

  /**
   * 'skipped' when the job is stale: the approval is settled already, or was decided again since
   * (another attempt). A re-delivered job of the current attempt runs again; the executors'
   * idempotency under the approval id makes that harmless, and settling is a compare-and-set,
   * so the audit records one execution.
   */
  async run(job: SkillExecutionJob, { settleTransient }: { settleTransient: boolean }): Promise<JobOutcome> {
    const { approvals, audit, conversations } = this.options.stores.forSite(job.siteId);
    const approval = await approvals.get(job.approvalId);
    if (approval?.status !== 'executing' || approval.attempts !== job.attempt) return 'skipped';
    const settled = await runApproval({
      approval,
      approvals,
      audit,
      conversations,
      executors: this.options.executors,
      settleTransientFailures: settleTransient,
      ...(this.options.reportError ? { reportError: this.options.reportError } : {}),
    });
    return settled.status === 'approved' ? 'approved' : settled.status === 'pending' ? 'pending' : 'skipped';
  }
}

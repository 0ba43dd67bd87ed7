// Test support: an ApprovalExecutor that calls the worker's job runner directly — what the queue does, without Redis.
import type { ApprovalExecutor } from '../src/approvals/approval-executor.js';
import type { ApprovalJobRunner } from '../src/approvals/approval-job-runner.js';
import type { AiStoreFactory } from '../src/store/ai/ai-stores.js';

export function inProcessExecutor(stores: AiStoreFactory, runner: ApprovalJobRunner): ApprovalExecutor {
  return {
    async execute(approval) {
      await runner.run({ siteId: approval.siteId, approvalId: approval.id, attempt: approval.attempts }, { settleTransient: true });
      return (await stores.forSite(approval.siteId).approvals.get(approval.id)) ?? approval;
    },
  };
}

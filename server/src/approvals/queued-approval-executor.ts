// Executes approvals through the `skill-execution` queue: one job per decision, then waits up to DECIDE_WAIT_MS.
import { type Approval, UnavailableError } from '@lumibase/shared';
import type { ApprovalExecutor } from './approval-executor.js';
import type { Logger } from '../logger.js';
import type { AiStoreFactory } from '../store/ai/ai-stores.js';
import type { SkillExecutionQueue } from './skill-execution.queue.js';
import { requeue } from './approval-operations.js';

export interface QueuedApprovalExecutorOptions {
  queue: SkillExecutionQueue;
  stores: AiStoreFactory;
  waitMs: number;
  logger: Logger;
  clock?: () => Date;
}

export class QueuedApprovalExecutor implements ApprovalExecutor {
  constructor(private readonly options: QueuedApprovalExecutorOptions) {}

  async execute(approval: Approval): Promise<Approval> {
    const { queue, stores, waitMs, logger, clock = () => new Date() } = this.options;
    const { approvals } = stores.forSite(approval.siteId);
    // `fresh`: this decision just started the attempt, so its job's first start is the attempt's first run.
    const job = { siteId: approval.siteId, approvalId: approval.id, attempt: approval.attempts, fresh: true as const };
    let queued: Awaited<ReturnType<SkillExecutionQueue['add']>>;
    try {
      queued = await queue.add(job);
    } catch (error) {
      // Nothing ran: the decision is undone so that deciding again, once Redis is back, works.
      logger.warn(
        { reason: (error as Error).message, approvalId: approval.id, siteId: approval.siteId },
        'could not queue an approved skill',
      );
      await requeue(approvals, approval, { lastError: 'The job queue was unavailable; nothing was executed', at: clock() });
      throw new UnavailableError({ message: 'The job queue is unavailable; the approval is still pending' });
    }
    await queue.waitForJob(queued, waitMs);
    return (await approvals.get(approval.id)) ?? approval;
  }
}

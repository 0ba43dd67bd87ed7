// Executes approvals through the `skill-execution` queue: one job per decision, then waits up to DECIDE_WAIT_MS for
// the approval-decided event its job's last transition publishes (SettledApprovals).
import { type Approval, UnavailableError } from '@lumibase/shared';
import type { ApprovalExecutor } from './approval-executor.js';
import type { Logger } from '../logger.js';
import type { AiStoreFactory } from '../store/ai/ai-stores.js';
import type { SkillExecutionQueue } from './skill-execution.queue.js';
import type { SettledApprovals, SettlementWatch } from './settled-approvals.js';
import { requeue } from './approval-operations.js';

/**
 * Events travel over Redis pub/sub, which drops what is sent while a subscriber reconnects: a decision that has heard
 * nothing for this long reads the approval itself, so a lost event costs a second at most, not the whole wait.
 */
export const SETTLEMENT_READ_EVERY_MS = 1000;

export interface QueuedApprovalExecutorOptions {
  queue: SkillExecutionQueue;
  stores: AiStoreFactory;
  /** Fed with this process's site events (compose-server.ts). */
  settlements: Pick<SettledApprovals, 'watch'>;
  waitMs: number;
  /** The site's latest event seq this process knows (EventLog.knownSeq), handed to the job as a hint. */
  knownSeq?: (siteId: string) => number | undefined;
  /** How long a decision that heard nothing waits before reading the approval (default SETTLEMENT_READ_EVERY_MS). */
  readEveryMs?: number;
  logger: Logger;
  clock?: () => Date;
}

export class QueuedApprovalExecutor implements ApprovalExecutor {
  constructor(private readonly options: QueuedApprovalExecutorOptions) {}

  async execute(approval: Approval): Promise<Approval> {
    const { queue, stores, settlements, logger, clock = () => new Date() } = this.options;
    const { approvals } = stores.forSite(approval.siteId);
    // `fresh`: this decision just started the attempt, so its job's first start is the attempt's first run.
    // `headSeq`: the decision's own event was just appended, so the worker's first append need not read the head.
    const headSeq = this.options.knownSeq?.(approval.siteId);
    const job = {
      siteId: approval.siteId,
      approvalId: approval.id,
      attempt: approval.attempts,
      fresh: true as const,
      ...(headSeq ? { headSeq } : {}),
    };
    // Watched before the job exists: its outcome cannot come before the watch.
    const watch = settlements.watch(approval);
    try {
      try {
        await queue.add(job);
      } catch (error) {
        // Nothing ran: the decision is undone so that deciding again, once Redis is back, works.
        logger.warn(
          { reason: (error as Error).message, approvalId: approval.id, siteId: approval.siteId },
          'could not queue an approved skill',
        );
        await requeue(approvals, approval, { lastError: 'The job queue was unavailable; nothing was executed', at: clock() });
        throw new UnavailableError({ message: 'The job queue is unavailable; the approval is still pending' });
      }
      return await this.outcome(watch, approval);
    } finally {
      watch.stop();
    }
  }

  /** The approval once its job is over, or as it is when the wait is up (still `executing`: decide answers 202). */
  private async outcome(watch: SettlementWatch, executing: Approval): Promise<Approval> {
    const { approvals } = this.options.stores.forSite(executing.siteId);
    const { waitMs, readEveryMs = SETTLEMENT_READ_EVERY_MS } = this.options;
    const deadline = Date.now() + waitMs;
    for (;;) {
      const left = deadline - Date.now();
      const heard = await watch.next(Math.min(left, readEveryMs));
      if (heard) return heard;
      const current = (await approvals.get(executing.id)) ?? executing;
      if (current.status !== 'executing' || Date.now() >= deadline) return current;
    }
  }
}

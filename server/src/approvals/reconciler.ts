// Repairs what a crash can leave behind: owed events not yet in the log, approvals `executing` with no live job.
import type { Logger } from '../logger.js';
import type { OutboxRelay } from '../store/outbox.js';
import type { AiModels } from '../store/ai/ai-models.js';
import type { SkillExecutionQueue } from './skill-execution.queue.js';
import type { WebhooksQueue } from '../webhooks/webhooks.queue.js';
import type { WebhookDeliveryJob } from '@lumibase/shared';
import { PeriodicTask } from '../infrastructure/periodic-task.js';

/** A decision adds its job right after its compare-and-set; younger `executing` approvals are left alone. */
const DEFAULT_GRACE_MS = 15_000;
const LIVE_JOB_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/** Most stale webhook deliveries queued again per pass. */
const DELIVERIES_PER_PASS = 200;

export interface ReconcilerOptions {
  relay: OutboxRelay;
  approvals: AiModels['approvals'];
  queue: SkillExecutionQueue;
  /**
   * Webhook deliveries still pending long after they were queued: their job may be gone (a Redis that came back
   * empty). Queuing one again is harmless: its job id is the delivery id, so a job still there is not added twice.
   */
  webhooks?: {
    pending(olderThan: Date, limit: number): Promise<WebhookDeliveryJob[]>;
    queue: Pick<WebhooksQueue, 'add'>;
  };
  logger: Logger;
  graceMs?: number;
  clock?: () => Date;
}

export class Reconciler {
  private readonly task = new PeriodicTask(
    () => this.reconcile(),
    (error: unknown) => this.options.logger.warn({ err: error }, 'reconcile failed'),
  );

  constructor(private readonly options: ReconcilerOptions) {}

  /** One pass; returns what it did. Safe to run in several processes at once (every step is idempotent). */
  async reconcile(): Promise<{ relayed: number; requeued: number; redelivered: number }> {
    const { relay, approvals, queue, webhooks, logger, graceMs = DEFAULT_GRACE_MS, clock = () => new Date() } = this.options;
    const relayed = await relay.relayAll();
    // Across sites on purpose: each approval found is then handled within its own site.
    const stuck = await approvals
      .find({ status: 'executing', updatedAt: { $lt: new Date(clock().getTime() - graceMs) } }, { _id: 1, siteId: 1, attempts: 1 })
      .lean<{ _id: { toHexString(): string }; siteId: { toHexString(): string }; attempts: number }[]>();
    let requeued = 0;
    for (const approval of stuck) {
      const job = { siteId: approval.siteId.toHexString(), approvalId: approval._id.toHexString(), attempt: approval.attempts };
      const existing = await queue.getJob(job);
      const state = existing ? await existing.getState() : 'missing';
      if (LIVE_JOB_STATES.has(state)) continue;
      // A finished job whose approval is still executing (its worker died while settling): run it again.
      if (existing) await existing.remove().catch(() => {});
      await queue.add(job);
      requeued++;
      logger.warn({ approvalId: job.approvalId, siteId: job.siteId, previousJobState: state }, 'requeued an approval left executing');
    }
    let redelivered = 0;
    for (const job of (await webhooks?.pending(new Date(clock().getTime() - graceMs), DELIVERIES_PER_PASS)) ?? []) {
      await webhooks?.queue.add(job);
      redelivered++;
    }
    if (relayed > 0 || requeued > 0) logger.info({ relayed, requeued }, 'reconciled');
    return { relayed, requeued, redelivered };
  }

  /** Reconciles now and then every `intervalMs`; failures are logged and retried on the next tick. */
  start(intervalMs: number): void {
    this.task.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.task.stop();
  }
}

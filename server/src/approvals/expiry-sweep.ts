// Expires pending approvals past their `expiresAt`, across sites, every few seconds (within 15 s of the time).
import type { Logger } from '../logger.js';
import type { AiModels } from '../store/ai/ai-models.js';
import type { AiStoreFactory } from '../store/ai/ai-stores.js';
import { expire } from './approval-operations.js';
import { PeriodicTask } from '../infrastructure/periodic-task.js';

export interface ExpirySweepOptions {
  approvals: AiModels['approvals'];
  stores: AiStoreFactory;
  logger: Logger;
  clock?: () => Date;
}

const BATCH = 500;

export class ExpirySweep {
  private readonly task = new PeriodicTask(
    () => this.sweep(),
    (error: unknown) => this.options.logger.warn({ err: error }, 'expiry sweep failed'),
  );

  constructor(private readonly options: ExpirySweepOptions) {}

  /** One pass; returns how many it expired. Safe in several processes at once: each expiry is a compare-and-set. */
  async sweep(): Promise<number> {
    const { approvals, stores, logger, clock = () => new Date() } = this.options;
    const now = clock();
    // Across sites on purpose: each approval found is then expired within its own site.
    const due = await approvals
      .find({ status: 'pending', expiresAt: { $lte: now } }, { _id: 1, siteId: 1 })
      .limit(BATCH)
      .lean<{ _id: { toHexString(): string }; siteId: { toHexString(): string } }[]>();
    let expired = 0;
    for (const { _id, siteId } of due) {
      const site = stores.forSite(siteId.toHexString());
      const approval = await site.approvals.get(_id.toHexString());
      if (approval?.status !== 'pending' || Date.parse(approval.expiresAt) > now.getTime()) continue;
      if (await expire(site.approvals, approval, { reason: 'ttl', at: now })) expired++;
    }
    if (expired > 0) logger.info({ expired }, 'expired approvals');
    return expired;
  }

  /** Sweeps now and then every `intervalMs`; failures are logged and retried on the next tick. */
  start(intervalMs: number): void {
    this.task.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.task.stop();
  }
}

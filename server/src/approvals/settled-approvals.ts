// Where a decision hears that its approval's job is over: the `approval-decided` event the job's last transition
// owes, as this process's sockets get it (its own relay's events and, through the adapter, every other process's).
// The event is published once its write is durable, so it is the approval as stored: no read, no queue events.
import type { Approval, SiteEvent } from '@lumibase/shared';

export interface SettlementWatch {
  /** The approval as its job left it, or undefined when nothing came within `ms`. */
  next(ms: number): Promise<Approval | undefined>;
  stop(): void;
}

interface Waiter {
  /** Only what followed this revision (the `executing` one the decision handed over) is an outcome. */
  after: number;
  heard?: Approval;
  wake?: () => void;
}

export class SettledApprovals {
  private readonly waiting = new Map<string, Set<Waiter>>();

  /** Every site event this process sees, in any order: what is not a later outcome of a watched approval is ignored. */
  observe(event: SiteEvent): void {
    if (event.name !== 'approval-decided') return;
    const { approval } = event.payload;
    if (approval.status === 'executing') return;
    for (const waiter of this.waiting.get(keyOf(approval.siteId, approval.id)) ?? []) {
      if (approval.revision <= waiter.after || (waiter.heard && waiter.heard.revision >= approval.revision)) continue;
      waiter.heard = approval;
      waiter.wake?.();
    }
  }

  /** Watches `executing` (as the decision handed it over) from now on: call before its job can run. */
  watch(executing: Approval): SettlementWatch {
    const key = keyOf(executing.siteId, executing.id);
    const waiter: Waiter = { after: executing.revision };
    const waiters = this.waiting.get(key) ?? new Set<Waiter>();
    waiters.add(waiter);
    this.waiting.set(key, waiters);
    return {
      next: (ms) =>
        new Promise<Approval | undefined>((resolve) => {
          if (waiter.heard || ms <= 0) return resolve(waiter.heard);
          const timer = setTimeout(() => resolve(waiter.heard), ms);
          waiter.wake = () => {
            clearTimeout(timer);
            resolve(waiter.heard);
          };
        }),
      stop: () => {
        waiter.wake = undefined;
        waiters.delete(waiter);
        if (waiters.size === 0 && this.waiting.get(key) === waiters) this.waiting.delete(key);
      },
    };
  }
}

function keyOf(siteId: string, approvalId: string): string {
  return `${siteId}:${approvalId}`;
}

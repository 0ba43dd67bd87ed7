// The outbox's target-watch subscriber: a pending approval whose target changes (its collection, field or item deleted,
// recreated, or, for items and fields, changed) expires with reason `target_changed` as soon as the content change is
// relayed, pushed as `approval-decided`, without anyone having to try to decide it (docs/API.md, decide rules).
// Cheap: only `content-changed` events look, at the ids and targets of the site's pending approvals (one indexed
// query of two small fields, every pending approval), and only those whose target names the event's collection are
// read in full and inspected again. A failure leaves the event owed: the relay retries it (re-checking is idempotent;
// an expiry is a compare-and-set).
import type { Approval, ContentChange, SiteEvent } from '@lumibase/shared';
import type { OutboxSubscriber } from '../store/outbox-subscriber.js';
import { type ApprovalTargets, sameTarget } from '../skills/approval-targets.js';
import type { ApprovalRepository } from '../store/ai/approval.store.js';
import { expire } from './approval-operations.js';

export interface TargetWatchDependencies {
  approvals(siteId: string): Pick<ApprovalRepository, 'pendingTargets' | 'get' | 'transition'>;
  targets: ApprovalTargets;
  clock?: () => Date;
}

/** Whether a content change may concern the approval's target (an item event only its own item). */
export function mayConcern(target: Approval['target'], change: ContentChange): boolean {
  if (!target || target.kind === 'user' || target.collection !== change.collection) return false;
  if (change.kind === 'item') return target.kind === 'item' && target.id !== undefined && target.id === change.id;
  return true;
}

/** A field changed in place (same name, another definition): its identity is the same, its meaning is not. */
function fieldChangedInPlace(target: Approval['target'], change: ContentChange): boolean {
  return change.kind === 'field' && change.action === 'updated' && target?.kind === 'field' && target.field === change.field;
}

/** Expires the pending approvals of the event's site whose target the change changed; returns how many. */
export async function expireChangedTargets(dependencies: TargetWatchDependencies, event: SiteEvent): Promise<number> {
  if (event.name !== 'content-changed') return 0;
  const change = event.payload;
  const approvals = dependencies.approvals(change.siteId);
  const concerned = (await approvals.pendingTargets()).filter(({ target }) => mayConcern(target, change));
  let expired = 0;
  for (const { id } of concerned) {
    const approval = await approvals.get(id);
    if (approval?.status !== 'pending') continue;
    const changed =
      fieldChangedInPlace(approval.target, change) ||
      !sameTarget(approval.target, (await dependencies.targets.inspect(change.siteId, approval.skillName, approval.arguments)).target);
    if (!changed) continue;
    if (await expire(approvals, approval, { reason: 'target_changed', at: (dependencies.clock ?? (() => new Date()))() })) expired++;
  }
  return expired;
}

/** `resolve` is called at the first event: the composition builds the approvals' stores after the relay. */
export function createTargetWatchSubscriber(resolve: () => TargetWatchDependencies): OutboxSubscriber {
  return {
    name: 'target-watch',
    async onAppended(event) {
      await expireChangedTargets(resolve(), event);
    },
  };
}

// What an approval will change, and how much: its target (taken at creation, checked at decision and right before
// running) and its impact preview (shown to the approver, refreshed when it grows). Each skill's module inspects;
// StoreApprovalTargets dispatches to it over the site's stores.
import { type ApprovalImpact, type ApprovalTarget, canonicalJson } from '@lumibase/shared';
import type { SiteView } from './site-view.js';
import type { TargetPreview } from './skill-module.js';

export type { TargetPreview } from './skill-module.js';

export interface ApprovalTargets {
  /** The target and impact of a skill call as the site stands now; {} for skills that change nothing. */
  inspect(siteId: string, skillName: string, args: Record<string, unknown>): Promise<TargetPreview>;
  /** The site as inspect reads it, for a plan's dry run (dry-run.ts); without it a plan's steps are inspected one by one against the site as it is. */
  siteView?(siteId: string): { site: SiteView; restorableDays?: number };
}

/** For tests of the gate alone: no target, no impact. */
export const NO_TARGETS: ApprovalTargets = { inspect: async () => ({}) };

/** Same identity: the recorded target and the current one describe the same thing. */
export function sameTarget(recorded: ApprovalTarget | undefined, current: ApprovalTarget | undefined): boolean {
  return canonicalJson(recorded ?? null) === canonicalJson(current ?? null);
}

export function sameImpact(recorded: ApprovalImpact | undefined, current: ApprovalImpact | undefined): boolean {
  return canonicalJson(recorded ?? null) === canonicalJson(current ?? null);
}

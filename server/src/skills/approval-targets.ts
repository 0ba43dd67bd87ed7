// What an approval will change, and how much: its target (taken at creation, checked at decision and right before
// running) and its impact preview (shown to the approver, refreshed when it grows). Each skill's module inspects;
// StoreApprovalTargets dispatches to it over the site's stores.
import type { ApprovalImpact, ApprovalTarget } from '@lumibase/shared';
import type { TargetPreview } from './skill-module.js';

export type { TargetPreview } from './skill-module.js';

export interface ApprovalTargets {
  /** The target and impact of a skill call as the site stands now; {} for skills that change nothing. */
  inspect(siteId: string, skillName: string, args: Record<string, unknown>): Promise<TargetPreview>;
}

/** For tests of the gate alone: no target, no impact. */
export const NO_TARGETS: ApprovalTargets = { inspect: async () => ({}) };

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, inner]) => inner !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Same identity: the recorded target and the current one describe the same thing. */
export function sameTarget(recorded: ApprovalTarget | undefined, current: ApprovalTarget | undefined): boolean {
  return canonical(recorded ?? null) === canonical(current ?? null);
}

export function sameImpact(recorded: ApprovalImpact | undefined, current: ApprovalImpact | undefined): boolean {
  return canonical(recorded ?? null) === canonical(current ?? null);
}

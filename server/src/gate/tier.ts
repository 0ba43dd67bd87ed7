// The gate's tier for one call (docs/API.md, "The gate's tiers and limits"): how the site's policy, the risk rule and what the
// model read before decide whether a call is turned off, runs at once, runs with a notice, or waits for a human.
import { type CopilotPolicy, isDangerous, permittedMode, type RiskClassifiable, writes } from '@lumibase/shared';

/** `auto`: runs at once; `warn`: runs at once with a `copilot-notice`; `ask`: an approval; `off`: denied. */
export type GateTier = 'auto' | 'warn' | 'ask' | 'off';

export interface TierDecision {
  tier: GateTier;
  /** The skill's own mode was lower: a content read in the same run took it up to the policy's `afterContentRead`. */
  escalated: boolean;
}

const RANK = { auto: 0, warn: 1, ask: 2 } as const;

/**
 * - `off` stays off; a dangerous skill always asks, whatever the policy says (the seeds' rule);
 * - a skill that only reads runs (`ask` still asks; `warn` has nothing to undo, so it runs);
 * - a safe write after a content read in the same run (`readBefore` not empty) is taken up to `afterContentRead`
 *   when its own mode is lower.
 */
export function gateTier(
  skill: RiskClassifiable,
  policy: Pick<CopilotPolicy, 'skills' | 'afterContentRead'>,
  readBefore: readonly unknown[] | undefined,
): TierDecision {
  const mode = policy.skills[skill.name] ?? 'ask';
  if (mode === 'off') return { tier: 'off', escalated: false };
  if (isDangerous(skill) || !writes(skill)) return { tier: permittedMode(skill, mode), escalated: false };
  const floor = policy.afterContentRead;
  if ((readBefore?.length ?? 0) > 0 && RANK[mode] < RANK[floor]) return { tier: floor, escalated: true };
  return { tier: mode, escalated: false };
}

// What an approval would do, taken again at decision (docs/API.md, "AI Copilot"): the same target as when it was asked, and
// the same impact — for a plan, every step's, each dry-run against the site as the earlier steps leave it. One path for
// one step and for a plan: a target changed expires it; an impact changed is refreshed for the approver to see again.
import type { Approval, ApprovalImpact, ApprovalStep } from '@lumibase/shared';
import { type ApprovalTargets, sameImpact, sameTarget } from '../skills/approval-targets.js';
import { planAsItNowIs, planSummary } from '../skills/dry-run.js';

export type DecisionCheck =
  | { kind: 'unchanged' }
  | { kind: 'target_changed' }
  /** The approval's impact as it now is, and a plan's steps with theirs. */
  | { kind: 'impact_changed'; impact: ApprovalImpact | undefined; steps?: ApprovalStep[] };

export async function checkAtDecision(targets: ApprovalTargets, approval: Approval): Promise<DecisionCheck> {
  if (approval.steps.length > 1) return checkPlan(targets, approval);
  const preview = await targets.inspect(approval.siteId, approval.skillName, approval.arguments);
  if (!sameTarget(approval.target, preview.target)) return { kind: 'target_changed' };
  if (!sameImpact(approval.impact, preview.impact)) return { kind: 'impact_changed', impact: preview.impact };
  return { kind: 'unchanged' };
}

async function checkPlan(targets: ApprovalTargets, approval: Approval): Promise<DecisionCheck> {
  const now = await planAsItNowIs(targets, approval);
  if (!now) return { kind: 'target_changed' };
  if (now.every((step, index) => sameImpact(approval.steps[index]!.impact, step.impact))) return { kind: 'unchanged' };
  // Each step as it stands (id, status, progress of an earlier attempt), with its impact as it now is.
  const steps = approval.steps.map(({ impact: _before, ...step }, index): ApprovalStep => {
    const impact = now[index]!.impact;
    return impact ? { ...step, impact } : step;
  });
  const summary = planSummary(
    steps.map((step) => step.impact),
    steps.map((step) => step.skillName),
  );
  return { kind: 'impact_changed', impact: { summary }, steps };
}

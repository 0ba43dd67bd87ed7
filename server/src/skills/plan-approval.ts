// What an approval shows for its planned calls (docs/API.md "Runs and plans"): one call is a one-step approval of that
// skill (its target and impact as the site stands, as before plans); several are a "plan" with `arguments: {}`, the
// steps (planned) and an impact saying what each does, in order. The harness stores a turn's plan with it, and an
// edit of a plan's steps stores the edited plan with it.
import { randomBytes } from 'node:crypto';
import { type ApprovalImpact, type ApprovalStep, type ApprovalTarget, PLAN_SKILL_NAME } from '@lumibase/shared';
import type { ApprovalTargets } from './approval-targets.js';
import { type DryRunCall, planSummary } from './dry-run.js';

export interface PlanApproval {
  skillName: string;
  arguments: Record<string, unknown>;
  target?: ApprovalTarget;
  impact?: ApprovalImpact;
  /** Only with several steps (one step is the approval's own fields). */
  steps?: ApprovalStep[];
}

export async function planApproval(targets: ApprovalTargets, siteId: string, calls: readonly DryRunCall[]): Promise<PlanApproval> {
  const [single] = calls;
  if (calls.length === 1 && single) {
    const { target, impact } = await targets.inspect(siteId, single.skillName, single.arguments);
    return { skillName: single.skillName, arguments: single.arguments, ...(target ? { target } : {}), ...(impact ? { impact } : {}) };
  }
  return {
    skillName: PLAN_SKILL_NAME,
    arguments: {},
    impact: {
      summary: planSummary(
        calls.map((call) => call.impact),
        calls.map((call) => call.skillName),
      ),
    },
    // Each step's id stays with it through edits (an edited plan's calls carry theirs): its operations are keyed by it.
    steps: calls.map((call) => ({ ...call, id: call.id ?? newStepId(), status: 'planned' as const })),
  };
}

/** A plan step's id: short, random, unique within its plan. */
export const newStepId = () => randomBytes(6).toString('hex');

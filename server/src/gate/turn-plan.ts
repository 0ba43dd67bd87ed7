// A turn's plan (docs/API.md, "Runs and plans"): from the first call that needs an approval on, the turn's writing calls
// are gathered here as steps, dry-run against the site as the earlier steps leave it, and stored as one approval
// when the turn ends (AISecureHarness.commitPlan).
import { randomBytes } from 'node:crypto';
import type { ApprovalImpact, ApprovalTarget, ReadBefore } from '@lumibase/shared';
import type { SimulatedSite } from '../skills/simulated-site.js';

export interface PlannedStep {
  skillName: string;
  arguments: Record<string, unknown>;
  target?: ApprovalTarget;
  impact?: ApprovalImpact;
}

export class TurnPlan {
  /** The approval's id, told to the model with each planned call before the approval is stored (an ObjectId's hex form). */
  readonly id = randomBytes(12).toString('hex');
  readonly steps: PlannedStep[] = [];
  /** What the model read before the planned calls (recorded on the approval). */
  readonly readBefore: ReadBefore[] = [];
  /** The site as the steps so far leave it: made by the harness at the first step. */
  site?: SimulatedSite;
  /** False for a plan of one call stored at once (planOfOne): its id was told to no one, the store chooses it as for any insert. */
  readonly idTold: boolean;

  constructor({ idTold = true }: { idTold?: boolean } = {}) {
    this.idTold = idTold;
  }
}

/**
 * A call that needs an approval outside a chat turn (an MCP tools/call, the Studio's skill run, a chat without plans):
 * a plan of one step, stored at once by the same commitPlan as a turn's plan. Its target and impact are taken at
 * commit, as for any one-step plan (skills/plan-approval.ts).
 */
export function planOfOne(call: { name: string; arguments: Record<string, unknown> }): TurnPlan {
  const plan = new TurnPlan({ idTold: false });
  plan.steps.push({ skillName: call.name, arguments: call.arguments });
  return plan;
}

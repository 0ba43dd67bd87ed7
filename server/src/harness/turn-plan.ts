// A turn's plan (API.md, "Runs and plans"): from the first call that needs an approval on, the turn's writing calls
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
}

// What makes two requests identical (docs/API.md: a plan whose steps are identical to those of a pending approval creates
// no second approval): the steps' skills and arguments, in order, as one hash. A pending approval carries it under a
// unique index, so the lookup and the insert are one atomic step.
import { createHash } from 'node:crypto';
import { canonicalJson } from '@lumibase/shared';

interface Requested {
  skillName: string;
  arguments: unknown;
  /** A plan's steps (docs/API.md "Runs and plans"); without them the approval is a plan of one step. */
  steps?: readonly { skillName: string; arguments: unknown }[];
}

export function pendingKeyOf(approval: Requested): string {
  const steps =
    Array.isArray(approval.steps) && approval.steps.length > 0
      ? approval.steps.map((step) => [step.skillName, step.arguments])
      : [[approval.skillName, approval.arguments]];
  return createHash('sha256').update(canonicalJson(steps)).digest('hex');
}

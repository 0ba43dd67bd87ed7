// A plan's steps in words (docs/API.md, "Runs and plans"): each step's sentence from its skill's definition (never its
// internal name), where each step stands while the plan runs, and the plan's progress as one sentence.
import type { ApprovalJson, StepStatus } from '@lumibase/shared';
import { keptByUndo, skillLabel } from './approval-outcome.js';
import { describeSkillCall } from './skill-call.js';

export type PlanStep = ApprovalJson['steps'][number];

/** An approval of several steps, shown as a numbered list (one step shows as a single request, as before plans). */
export function isPlan(approval: Pick<ApprovalJson, 'steps'>): boolean {
  return approval.steps.length > 1;
}

/** "Adds the datetime field date to events", else the skill's label ("Add a field"). */
export function stepSentence(step: Pick<PlanStep, 'skillName' | 'arguments'>): string {
  return describeSkillCall(step.skillName, step.arguments) ?? skillLabel(step.skillName);
}

/** Each step state as a chip says it, its tone, and what it means in a sentence (the chip's accessible text). */
export const STEP_STATE: Record<StepStatus, { label: string; tone: string; meaning: string }> = {
  planned: { label: 'Planned', tone: '', meaning: 'not run yet' },
  running: { label: 'Running', tone: 'badge-accent', meaning: 'running now' },
  done: { label: 'Done', tone: 'badge-success', meaning: 'done' },
  failed: { label: 'Failed', tone: 'badge-danger', meaning: 'failed' },
  undone: { label: 'Undone', tone: 'badge-warning', meaning: 'done, then undone because a later step failed' },
  skipped: { label: 'Skipped', tone: '', meaning: 'not run, because an earlier step failed' },
};

/** "Step 2 of 4: running now" — what a screen reader hears for a step's state. */
export function stepStateText(index: number, count: number, status: StepStatus): string {
  return `Step ${index + 1} of ${count}: ${STEP_STATE[status].meaning}`;
}

/** The plan's progress while it runs or after: "2 of 4 steps done", "Step 3 failed; the 2 steps done before it were undone". */
export function planProgress(approval: Pick<ApprovalJson, 'steps'>): string | undefined {
  const { steps } = approval;
  const count = (status: StepStatus) => steps.filter((step) => step.status === status).length;
  const failed = steps.findIndex((step) => step.status === 'failed');
  if (failed >= 0) {
    const undone = count('undone');
    const kept = keptByUndo(steps);
    return undone > 0
      ? `Step ${failed + 1} failed; the ${undone === 1 ? 'step' : `${undone} steps`} done before it ${undone === 1 ? 'was' : 'were'} undone, ${kept ? `except ${kept}` : 'so nothing of the plan remains'}.`
      : `Step ${failed + 1} failed; nothing of the plan remains.`;
  }
  const done = count('done');
  if (done === steps.length) return `All ${steps.length} steps done.`;
  const running = steps.findIndex((step) => step.status === 'running');
  if (running >= 0) return `Running step ${running + 1} of ${steps.length}; ${done} done.`;
  return done > 0 ? `${done} of ${steps.length} steps done.` : undefined;
}

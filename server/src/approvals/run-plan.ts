// Runs an approved plan (docs/API.md, "Runs and plans"): its steps in order in one job, each target checked right before
// and each effect right after; a failure undoes the done steps in reverse. Progress is kept per step in the approval
// itself, so a redelivered job resumes where the last one stopped, and a step never runs twice (each step runs under
// its own operation id: a step found `running` is run again under that id, which the executors answer from their ledger).
import { type Approval, type ApprovalStep, isSkillName, quotedSkill } from '@lumibase/shared';
import { type ApprovalTargets, sameTarget } from '../skills/approval-targets.js';
import type { StepUndo } from '../skills/skill-module.js';
import { createdCollection, SKILL_MODULES } from '../skills/skill-modules.js';
import { expire, settle } from './approval-operations.js';
import type { ApprovalRepository } from '../store/ai/approval.store.js';
import { describeFailure } from './describe-failure.js';
import { recordSteps, rolledBack } from './plan-operations.js';
import { type SkillExecutors, runSkillExecutor } from '../skills/skill-executors.js';
import { retriesFailure, TransientExecutionError } from './transient-failure.js';
import type { StepUndoer } from './undo-step.js';

export interface RunPlanOptions {
  approval: Approval;
  approvals: Pick<ApprovalRepository, 'get' | 'transition'>;
  executors: SkillExecutors;
  targets: ApprovalTargets;
  /** Performs the undo of a done step when a later one fails (undo-step.ts). */
  undo?: StepUndoer;
  clock?: () => Date;
  /** As for a one-step approval (transient-failure.ts): false while the queue has tries left, and a step's transient failure is retried by it. */
  settleTransient?: boolean;
  reportError?: (error: unknown, context: { skillName: string; siteId: string }) => void;
}

/**
 * The operation id of a step (and of its undo): the executors' idempotency key. It names the step by its id, which an
 * edit keeps (its position may change: a step removed before it), and the execution attempt, so a plan approved again
 * after a roll-back runs each step afresh instead of being answered from the ledger of the attempt that was undone.
 * Steps stored before they had ids are named by position.
 */
export const stepOperationId = (approval: Pick<Approval, 'id' | 'attempts' | 'steps'>, index: number, undo = false) =>
  `${approval.id}:${approval.attempts}:${approval.steps[index]?.id ?? `step${index + 1}`}${undo ? ':undo' : ''}`;

class StepFailure extends Error {
  constructor(
    readonly step: number,
    message: string,
    readonly targetChanged = false,
  ) {
    super(message);
  }
}

export async function runPlan(options: RunPlanOptions): Promise<Approval> {
  const { approvals, clock = () => new Date() } = options;
  let approval = options.approval;
  const save = async (steps: ApprovalStep[], failed?: { step: number; error: string }) => {
    const next = await recordSteps(approvals, approval, { steps, at: clock(), ...(failed ? { failed } : {}) });
    if (!next) throw new Error(`the plan ${approval.id} changed while it ran`);
    approval = next;
  };
  const steps = () => approval.steps.map((step) => ({ ...step }));

  // A job redelivered in the middle of a roll-back goes on undoing.
  const failedAt = approval.steps.findIndex((step) => step.status === 'failed');
  if (failedAt >= 0) {
    const error = approval.steps[failedAt]!.error ?? `step ${failedAt + 1} failed`;
    return rollBack(options, () => approval, save, new StepFailure(failedAt + 1, error), clock, true);
  }
  try {
    for (let index = 0; index < approval.steps.length; index++) {
      const step = approval.steps[index]!;
      if (step.status === 'done') continue;
      // A step found running was started by a killed worker: its effect may be there, so its target is not checked again.
      if (step.status !== 'running') await checkTarget(options, approval, index);
      const running = steps();
      running[index]!.status = 'running';
      if (step.status !== 'running') await save(running);
      // Marked running just now by this run's compare-and-set: no earlier run of this step's operation began.
      const result = await runStep(options, approval, index, step.status !== 'running');
      const done = steps();
      done[index] = { ...done[index]!, status: 'done', ...(result === undefined ? {} : { result }) };
      await save(done);
    }
  } catch (error) {
    if (!(error instanceof StepFailure)) throw error;
    return rollBack(options, () => approval, save, error, clock);
  }
  const settled = await settle(approvals, approval, {
    outcome: { ok: true, result: approval.steps.map((step) => step.result ?? null) },
    at: clock(),
  });
  return settled ?? (await approvals.get(approval.id)) ?? approval;
}

/** The step's target as the site now stands is the one planned; a target bound by name matches a collection an earlier step created. */
async function checkTarget({ targets }: RunPlanOptions, approval: Approval, index: number): Promise<void> {
  const step = approval.steps[index]!;
  const { target } = await targets.inspect(approval.siteId, step.skillName, step.arguments);
  const planned = step.target;
  if (!planned && !target) return;
  const createdEarlier =
    planned?.collection !== undefined &&
    approval.steps.slice(0, index).some((earlier) => createdCollection(earlier.skillName, earlier.arguments) === planned.collection);
  // Bound by name to a collection an earlier step created: its id was not known at planning, so it is not compared.
  const comparable = (candidate: typeof target) =>
    candidate && createdEarlier && !planned?.collectionId ? { ...candidate, collectionId: undefined } : candidate;
  if (!sameTarget(comparable(planned), comparable(target)))
    throw new StepFailure(
      index + 1,
      `step ${index + 1} (${quotedSkill(step.skillName)}): its target changed since the plan was approved`,
      true,
    );
}

async function runStep(options: RunPlanOptions, approval: Approval, index: number, firstRun: boolean): Promise<unknown> {
  const step = approval.steps[index]!;
  const number = index + 1;
  if (!isSkillName(step.skillName)) throw new StepFailure(number, `step ${number}: unknown skill ${step.skillName}`);
  const actor = approval.decidedBy ?? approval.requestedBy;
  let result: unknown;
  try {
    result = await runSkillExecutor(options.executors, step.skillName, step.arguments, {
      siteId: approval.siteId,
      actor,
      operationId: stepOperationId(approval, index),
      ...(firstRun ? { firstRun } : {}),
      via: 'approval',
      approvalId: approval.id,
    });
  } catch (error) {
    const failure = describeFailure(error, step.skillName, (internal) =>
      options.reportError?.(internal, { skillName: step.skillName, siteId: approval.siteId }),
    );
    // The step stays `running`: the queue's next try runs it again under its operation id, as after a killed worker.
    if (retriesFailure(failure, { settleTransient: options.settleTransient })) throw new TransientExecutionError(failure.message);
    throw new StepFailure(number, `step ${number} (${quotedSkill(step.skillName)}) failed: ${failure.message}`);
  }
  const verify = SKILL_MODULES[step.skillName].verify as
    | ((args: Record<string, unknown>, result: unknown, site: never) => Promise<string | undefined>)
    | undefined;
  const view = options.targets.siteView?.(approval.siteId);
  const problem = verify && view ? await verify(step.arguments, result, view.site as never) : undefined;
  if (problem) throw new StepFailure(number, `step ${number} (${quotedSkill(step.skillName)}) did not take effect: ${problem}`);
  return result;
}

/** The failed step marked failed, the done ones undone in reverse order, then pending again (or expired when a target changed). */
async function rollBack(
  options: RunPlanOptions,
  current: () => Approval,
  save: (steps: ApprovalStep[], failed?: { step: number; error: string }) => Promise<void>,
  failure: StepFailure,
  clock: () => Date,
  resumed = false,
): Promise<Approval> {
  const { approvals } = options;
  if (!resumed) {
    const failedSteps = current().steps.map((step) => ({ ...step }));
    failedSteps[failure.step - 1] = { ...failedSteps[failure.step - 1]!, status: 'failed', error: failure.message };
    await save(failedSteps, { step: failure.step, error: failure.message });
  }
  for (let index = failure.step - 2; index >= 0; index--) {
    const step = current().steps[index]!;
    if (step.status !== 'done') continue;
    // What the undo left (the step had not created it) is kept with the step, and said by the rolled_back audit.
    const left = await undoStep(options, current(), index);
    const undone = current().steps.map((candidate) => ({ ...candidate }));
    undone[index] = { ...undone[index]!, status: 'undone', ...(left !== undefined ? { undoNote: left } : {}) };
    await save(undone);
  }
  // Steps after the failed one never ran.
  const skipped = current().steps.map((step, index) =>
    index >= failure.step && step.status === 'planned' ? { ...step, status: 'skipped' as const } : step,
  );
  if (skipped.some((step, index) => step.status !== current().steps[index]!.status)) await save(skipped);
  const approval = current();
  // Expired or pending again, the audit says what was undone (rolled_back) whenever a step was.
  const undoneAny = approval.steps.some((step) => step.status === 'undone');
  const settled = failure.targetChanged
    ? await expire(approvals, approval, {
        reason: 'target_changed',
        at: clock(),
        ...(undoneAny ? { rolledBack: { lastError: failure.message } } : {}),
      })
    : await rolledBack(approvals, approval, { lastError: failure.message, at: clock() });
  return settled ?? (await approvals.get(approval.id)) ?? approval;
}

/** Undoes a done step; answers, in words, what the undo left because the step had not created it. */
async function undoStep(options: RunPlanOptions, approval: Approval, index: number): Promise<string | undefined> {
  const step = approval.steps[index]!;
  if (!isSkillName(step.skillName)) return;
  const undo = SKILL_MODULES[step.skillName].undo as ((args: Record<string, unknown>, result: unknown) => StepUndo | undefined) | undefined;
  // The dry run lets a step without an undo be only the last one, which is never undone (nothing runs after it).
  if (!undo) throw new Error(`step ${index + 1} (${quotedSkill(step.skillName)}) cannot be undone`);
  const inverse = undo(step.arguments, step.result);
  if (!inverse) return;
  if (!options.undo) throw new Error(`the plan ${approval.id} has no undoer to undo step ${index + 1}`);
  return options.undo(inverse, {
    siteId: approval.siteId,
    actor: approval.decidedBy ?? approval.requestedBy,
    operationId: stepOperationId(approval, index, true),
    stepOperationId: stepOperationId(approval, index),
    skillName: step.skillName,
    via: 'approval',
    approvalId: approval.id,
  });
}

// An editor's change to a pending approval's arguments (PATCH /ai/approvals/:id): validated with the skill's schema,
// its target and impact taken again, stored as a new revision for approvers to see. A plan's steps are edited or
// removed (`steps`), the steps left dry-run again as one plan. Nothing runs: approving then runs what that revision
// shows (decide-approval.ts), and under `selfApproval: false` not by its editor.
import {
  actorRefOf,
  type Approval,
  type ErrorDetail,
  findSkill,
  parseSkillArguments,
  quotedSkill,
  ValidationError,
} from '@lumibase/shared';
import type { ApprovalTargets } from '../skills/approval-targets.js';
import { dryRunPlan } from '../skills/dry-run.js';
import { planApproval } from '../skills/plan-approval.js';
import { recordNotInSite } from '../store/record-not-in-site.js';
import type { ApprovalRepository } from '../store/ai/approval.store.js';
import { edit, editPlan } from './approval-operations.js';
import { conflictAfterRace, type Decider, mayDecide, stillPending } from './decide-approval.js';

/** One step's edit: its new arguments, or null to remove it (the wire's `steps` entries). */
export type StepEdit = { arguments: Record<string, unknown> } | null;

export interface EditApprovalInput {
  siteId: string;
  approvalId: string;
  /** The revision the editor saw; another current one → ConflictError. */
  revision: number;
  /** The new arguments of a one-step approval. */
  arguments?: Record<string, unknown>;
  /** One entry per step: new arguments, or null to remove the step. */
  steps?: StepEdit[];
  editor: Decider;
}

export interface ApprovalEditorOptions {
  stores: { forSite(siteId: string): { approvals: ApprovalRepository } };
  targets: ApprovalTargets;
  clock?: () => Date;
}

export class ApprovalEditor {
  private readonly clock: () => Date;

  constructor(private readonly options: ApprovalEditorOptions) {
    this.clock = options.clock ?? (() => new Date());
  }

  /**
   * ForbiddenError when the approval is not in this site or the editor could not decide it (`approvals:decide` and
   * the skill's capabilities); ConflictError when it is not pending, has run out of time, or is not at `revision`;
   * ValidationError (details under `arguments.` or `steps.N.arguments.`) for arguments the skill's schema refuses.
   * Returns the approval at its new revision.
   */
  async editApproval(input: EditApprovalInput): Promise<Approval> {
    const { approvals } = this.options.stores.forSite(input.siteId);
    const approval = await approvals.get(input.approvalId);
    if (!approval) throw recordNotInSite();
    mayDecide(input.editor, approval);
    const at = this.clock();
    await stillPending(approvals, approval, { at, revision: input.revision });

    if (approval.steps.length > 1) return this.editPlan(approvals, approval, input, at);
    const edited = editedArguments(approval, input);
    // Taken again for the new arguments: what the approver will see is what approving will check and run.
    const preview = await this.options.targets.inspect(input.siteId, approval.skillName, edited);
    const saved = await edit(approvals, approval, {
      actor: actorRefOf(input.editor),
      at,
      edit: { arguments: edited, target: preview.target, impact: preview.impact },
    });
    if (!saved) throw await conflictAfterRace(approvals, approval.id);
    return saved;
  }

  /** A plan's steps edited and removed; the steps left dry-run again as one plan (ValidationError when one cannot succeed). */
  private async editPlan(approvals: ApprovalRepository, approval: Approval, input: EditApprovalInput, at: Date): Promise<Approval> {
    const kept = editedSteps(approval, input);
    const dry = await dryRunPlan(this.options.targets, input.siteId, kept);
    if (!dry.ok) {
      const { index, skillName } = kept[dry.index]!;
      throw new ValidationError({
        message: `Step ${index + 1} (${quotedSkill(skillName)}) cannot succeed after the edit: ${dry.reason}`,
        details: [{ path: `steps.${index}.arguments`, message: dry.reason }],
      });
    }
    const plan = await planApproval(this.options.targets, input.siteId, dry.steps);
    const removed = approval.steps.flatMap((_step, index) => (kept.some((step) => step.index === index) ? [] : [index]));
    const saved = await editPlan(approvals, approval, { actor: actorRefOf(input.editor), at, plan, removed });
    if (!saved) throw await conflictAfterRace(approvals, approval.id);
    return saved;
  }
}

/**
 * The plan's steps left by `steps` (one entry per step: new arguments, or null to remove it), each parsed with its
 * skill's schema, with its index in the plan. Every refusal at once, under `steps.N.arguments.`.
 */
function editedSteps(
  approval: Approval,
  { arguments: args, steps }: EditApprovalInput,
): { index: number; id?: string; skillName: string; arguments: Record<string, unknown> }[] {
  const count = approval.steps.length;
  if (steps === undefined || args !== undefined) {
    throw new ValidationError({
      message: 'Invalid request body',
      details: [{ path: 'steps', message: `a plan of ${count} steps is edited with steps, one entry per step` }],
    });
  }
  if (steps.length !== count) {
    throw new ValidationError({
      message: 'Invalid request body',
      details: [{ path: 'steps', message: `must have one entry per step of the plan (this approval has ${count})` }],
    });
  }
  if (steps.every((step) => step === null)) {
    throw new ValidationError({
      message: 'Invalid request body',
      details: [{ path: 'steps', message: 'at least one step must remain' }],
    });
  }
  const details: ErrorDetail[] = [];
  const kept: { index: number; id?: string; skillName: string; arguments: Record<string, unknown> }[] = [];
  for (const [index, step] of steps.entries()) {
    if (!step) continue;
    const { skillName, id } = approval.steps[index]!;
    try {
      kept.push({
        index,
        ...(id !== undefined ? { id } : {}),
        skillName,
        arguments: parseArguments(skillName, step.arguments, `steps.${index}.arguments`),
      });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      details.push(...(error.details ?? [{ path: `steps.${index}.arguments`, message: error.message }]));
    }
  }
  if (details.length > 0) throw new ValidationError({ message: 'Invalid step arguments', details });
  return kept;
}

/** The approval's new arguments, parsed with its skill's schema. A one-step approval takes `arguments` or `steps: [{ arguments }]`. */
function editedArguments(approval: Approval, { arguments: args, steps }: EditApprovalInput): Record<string, unknown> {
  if (steps === undefined) return parseArguments(approval.skillName, args ?? {}, 'arguments');
  if (steps.length !== 1) {
    throw new ValidationError({
      message: 'Invalid request body',
      details: [{ path: 'steps', message: 'must have one entry per step of the plan (this approval has 1)' }],
    });
  }
  const [step] = steps;
  if (!step) {
    throw new ValidationError({
      message: 'Invalid request body',
      details: [{ path: 'steps.0', message: 'at least one step must remain' }],
    });
  }
  return parseArguments(approval.skillName, step.arguments, 'steps.0.arguments');
}

function parseArguments(skillName: string, given: Record<string, unknown>, at: string): Record<string, unknown> {
  const skill = findSkill(skillName);
  if (!skill) throw new ValidationError({ message: `Unknown skill "${skillName}"` });
  const parsed = parseSkillArguments(skill, given);
  if (parsed.success) return parsed.arguments;
  throw new ValidationError({
    message: `Invalid arguments for ${quotedSkill(skillName)}`,
    details: parsed.details.map((detail) => ({ ...detail, path: detail.path ? `${at}.${detail.path}` : at })),
  });
}

// The dry run of a plan (docs/API.md, "Runs and plans"): each step is inspected against the site as the earlier steps will
// leave it (a SimulatedSite); a step that cannot succeed there is refused with why, before anything is stored. What one
// skill does in a plan (its refusals, its effect, its sentence) is on its module; here is only the order they run in.
import {
  type ApprovalImpact,
  type ApprovalTarget,
  canonicalJson,
  findSkill,
  isSkillName,
  quotedSkill,
  type SkillName,
  writes,
} from '@lumibase/shared';
import type { ApprovalTargets } from './approval-targets.js';
import { SimulatedSite } from './simulated-site.js';
import type { InspectContext, StepSentence } from './skill-module.js';
import { SKILL_MODULES } from './skill-modules.js';

export type DryRun = { ok: true; target?: ApprovalTarget; impact?: ApprovalImpact } | { ok: false; reason: string };

/** One step against the simulated site: its target and impact, or why it cannot succeed there. Applies its effect when it can. */
export async function dryRunStep(
  site: SimulatedSite,
  skillName: string,
  args: Record<string, unknown>,
  step: number,
  context: Omit<InspectContext, 'site'> = {},
): Promise<DryRun> {
  if (!isSkillName(skillName)) return { ok: true };
  if (site.irreversible) {
    const { step: earlier, skillName: name } = site.irreversible;
    return {
      ok: false,
      reason: `step ${earlier} (${quotedSkill(name)}) cannot be undone, so nothing may follow it in a plan (make it the last step)`,
    };
  }
  const skillModule = SKILL_MODULES[skillName];
  const refusal = await skillModule.refuse?.(args as never, site);
  if (refusal) return { ok: false, reason: refusal };
  const preview = await skillModule.inspect(args as never, { ...context, site });
  const summary = await sentenceOf(site, skillName, args, preview.impact?.summary);
  await skillModule.simulate?.(args as never, site, step);
  // A later step failing undoes the earlier ones; a write without an undo (updateField, deleteUser) can only come last.
  const skill = findSkill(skillName);
  if (!skillModule.undo && skill && writes(skill)) site.irreversible = { step, skillName };
  return {
    ok: true,
    ...(preview.target ? { target: preview.target } : {}),
    ...(summary !== undefined ? { impact: { ...preview.impact, summary } } : {}),
  };
}

/** The step's sentence: what it creates, changes or removes, saying which earlier step made what it works on. */
async function sentenceOf(
  site: SimulatedSite,
  skillName: SkillName,
  args: Record<string, unknown>,
  inspected: string | undefined,
): Promise<string | undefined> {
  const collection = typeof args.collection === 'string' ? args.collection : undefined;
  const step = collection ? await site.createdBy(collection) : undefined;
  const sentence: StepSentence = { inspected, createdBy: step !== undefined ? ` (created by step ${step})` : '' };
  const describeStep = SKILL_MODULES[skillName].describeStep;
  if (describeStep) return describeStep(args as never, sentence);
  return inspected === undefined ? undefined : `${inspected}${sentence.createdBy}`;
}

/** A call of a plan with its target and impact as the dry run found them. */
export interface DryRunCall {
  /** The step's id when it has one already (an edited plan's steps keep theirs). */
  id?: string;
  skillName: string;
  arguments: Record<string, unknown>;
  target?: ApprovalTarget;
  impact?: ApprovalImpact;
}

export type PlanDryRun = { ok: true; steps: DryRunCall[] } | { ok: false; index: number; reason: string };

/**
 * The calls as one plan, each dry-run against the site as the earlier ones leave it: their targets and impacts, or the
 * first (index from 0) that cannot succeed there and why. Without a site view each is inspected against the site as it is.
 */
export async function dryRunPlan(
  targets: ApprovalTargets,
  siteId: string,
  calls: readonly { id?: string | undefined; skillName: string; arguments: Record<string, unknown> }[],
): Promise<PlanDryRun> {
  const view = targets.siteView?.(siteId);
  const site = view ? new SimulatedSite(view.site) : undefined;
  const context = view?.restorableDays !== undefined ? { restorableDays: view.restorableDays } : {};
  const steps: DryRunCall[] = [];
  for (const [index, call] of calls.entries()) {
    const dry: DryRun = site
      ? await dryRunStep(site, call.skillName, call.arguments, index + 1, context)
      : { ok: true, ...(await targets.inspect(siteId, call.skillName, call.arguments)) };
    if (!dry.ok) return { ok: false, index, reason: dry.reason };
    steps.push({
      ...(call.id !== undefined ? { id: call.id } : {}),
      skillName: call.skillName,
      arguments: call.arguments,
      ...(dry.target ? { target: dry.target } : {}),
      ...(dry.impact ? { impact: dry.impact } : {}),
    });
  }
  return { ok: true, steps };
}

/** The plan's summary: one clause per step, in order. */
export function planSummary(impacts: readonly (ApprovalImpact | undefined)[], skillNames: readonly string[]): string {
  return impacts.map((impact, index) => `${index + 1}. ${impact?.summary ?? skillNames[index]}`).join('; ');
}

/**
 * A stored plan dry-run again against the site as it now is, as when it was planned (at decision): each step's target
 * and impact now, or null when a step cannot succeed any more or its target is no longer the one it was planned with.
 * Without a site view the plan is taken as it stands.
 */
export async function planAsItNowIs(
  targets: ApprovalTargets,
  approval: {
    siteId: string;
    steps: readonly {
      id?: string;
      skillName: string;
      arguments: Record<string, unknown>;
      target?: ApprovalTarget;
      impact?: ApprovalImpact;
    }[];
  },
): Promise<DryRunCall[] | null> {
  if (!targets.siteView) return [...approval.steps];
  const dry = await dryRunPlan(targets, approval.siteId, approval.steps);
  if (!dry.ok) return null;
  const moved = dry.steps.some(
    (step, index) => canonicalJson(step.target ?? null) !== canonicalJson(approval.steps[index]!.target ?? null),
  );
  return moved ? null : dry.steps;
}

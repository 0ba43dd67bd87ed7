// A turn's plan: each writing call after the first that needs approval becomes a step (dry-run against the site as
// the earlier steps leave it), and the turn's end stores the steps as one approval.
import {
  type ApprovalImpact,
  type ApprovalTarget,
  PLAN_SKILL_NAME,
  type ReadBefore,
  type SkillOutcome,
  quotedSkill,
} from '@lumibase/shared';
import type { ApprovalTargets } from '../skills/approval-targets.js';
import { dryRunStep } from '../skills/dry-run.js';
import { SimulatedSite } from '../skills/simulated-site.js';
import { planApproval } from '../skills/plan-approval.js';
import type { NewAuditEntry } from '../store/ai/audit.store.js';
import { actorOf, type HarnessContext, type HarnessStores } from './harness-context.js';
import type { TurnPlan } from './turn-plan.js';

/** What planning needs from the gate. */
export interface PlanningDependencies {
  stores: HarnessStores;
  targets: ApprovalTargets;
  clock: () => Date;
  approvalTtlMs: number;
}

/** The call as the plan's next step, dry-run against the site as the earlier steps leave it; denied if it cannot succeed there. */
export async function planStep(
  dependencies: PlanningDependencies,
  context: HarnessContext,
  plan: TurnPlan,
  call: { name: string; arguments: Record<string, unknown> },
  record: (entry: Omit<NewAuditEntry, 'actor' | 'createdAt'>) => Promise<unknown>,
): Promise<SkillOutcome> {
  const step = plan.steps.length + 1;
  const view = dependencies.targets.siteView?.(context.siteId);
  let preview: { target?: ApprovalTarget; impact?: ApprovalImpact } = {};
  if (view) {
    plan.site ??= new SimulatedSite(view.site);
    const dry = await dryRunStep(plan.site, call.name, call.arguments, step, {
      ...(view.restorableDays !== undefined ? { restorableDays: view.restorableDays } : {}),
    });
    // A first step that cannot succeed is stored as before (its impact says why); later ones are denied, the model may fix them.
    if (!dry.ok && step > 1) {
      const message = `${quotedSkill(call.name)} cannot be planned as step ${step}: ${dry.reason}.`;
      const outcome: SkillOutcome = {
        status: 'denied',
        skill: call,
        reason: 'invalid_arguments',
        message,
        details: [{ path: 'arguments', message: dry.reason }],
      };
      await record({
        action: 'denied',
        skillName: call.name,
        detail: {
          reason: 'invalid_arguments',
          message,
          arguments: call.arguments,
          step,
          ...(context.conversationId ? { conversationId: context.conversationId } : {}),
        },
      });
      return outcome;
    }
    if (dry.ok) preview = { ...(dry.target ? { target: dry.target } : {}), ...(dry.impact ? { impact: dry.impact } : {}) };
    else preview = await dependencies.targets.inspect(context.siteId, call.name, call.arguments);
  } else {
    preview = await dependencies.targets.inspect(context.siteId, call.name, call.arguments);
  }
  plan.steps.push({ skillName: call.name, arguments: call.arguments, ...preview });
  for (const read of context.readBefore ?? []) if (!plan.readBefore.some((known) => sameRead(known, read))) plan.readBefore.push(read);
  return {
    status: 'pending_approval',
    skill: call,
    approvalId: plan.id,
    step,
    message: `${quotedSkill(call.name)} is step ${step} of a plan that needs a human admin's approval (approval ${plan.id}).`,
  };
}

/** What the gate adds when it commits a plan of one call at once (AISecureHarness.execute). */
export interface CommitOptions {
  /** Writes the approval_requested entry (the gate's own, which dates it when written); by default dated at the commit. */
  record?: (entry: Omit<NewAuditEntry, 'actor' | 'createdAt'>) => Promise<unknown>;
  /** Added to the approval_requested entry of an approval this commit creates (the gate's `escalated`). */
  requested?: Record<string, unknown>;
}

/**
 * Stores the turn's plan as one approval (pushed as one approval-created) and returns its id;
 * one step is stored as today's single approvals. A plan identical to a pending one makes none:
 * that one's id is returned. Nothing planned: undefined. Every approval the gate creates is made
 * here: a turn's plan, and a single call as a plan of one (planOfOne).
 */
export async function commitPlan(
  dependencies: PlanningDependencies,
  context: HarnessContext,
  plan: TurnPlan,
  { record, requested }: CommitOptions = {},
): Promise<{ approvalId: string; alreadyPending: boolean } | undefined> {
  if (plan.steps.length === 0) return undefined;
  const { approvals, audit } = dependencies.stores.forSite(context.siteId);
  const single = plan.steps.length === 1 ? plan.steps[0]! : undefined;
  const skillName = single ? single.skillName : PLAN_SKILL_NAME;
  const args = single ? single.arguments : {};
  const calls = plan.steps.map((step) => ({ skillName: step.skillName, arguments: step.arguments }));
  const existing = single ? await approvals.findPendingIdentical(skillName, args) : await approvals.findPendingIdenticalPlan(calls);
  const at = dependencies.clock();
  const entry = (approvalId: string, detail: Record<string, unknown>) =>
    record
      ? record({ action: 'approval_requested', skillName, approvalId, detail })
      : audit.append({ action: 'approval_requested', skillName, approvalId, detail, actor: actorOf(context), createdAt: at.toISOString() });
  const detail = single ? { arguments: args } : { steps: calls };
  if (existing) {
    await entry(existing.id, { ...detail, alreadyPending: true });
    return { approvalId: existing.id, alreadyPending: true };
  }
  // One step: its target and impact as the site stands (as before plans); several: each step's from the dry run.
  const shown = await planApproval(dependencies.targets, context.siteId, plan.steps);
  const readBefore = plan.readBefore.length > 0 ? plan.readBefore : context.readBefore;
  // The lookup above is the cheap path; this insert is the atomic one: of two identical plans committed at the same
  // instant, one is stored and the other answered with it.
  const { approval, created } = await approvals.insertUnlessPending({
    ...(plan.idTold ? { id: plan.id } : {}),
    ...shown,
    context: {
      message: context.message,
      ...(context.conversationId ? { conversationId: context.conversationId } : {}),
      ...(readBefore?.length ? { readBefore } : {}),
      ...(context.via ? { via: context.via, ...(context.client ? { client: context.client } : {}) } : {}),
    },
    status: 'pending',
    requestedBy: actorOf(context),
    attempts: 0,
    expiresAt: new Date(at.getTime() + dependencies.approvalTtlMs).toISOString(),
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
  });
  if (!created) {
    await entry(approval.id, { ...detail, alreadyPending: true });
    return { approvalId: approval.id, alreadyPending: true };
  }
  await entry(approval.id, { ...detail, ...requested });
  return { approvalId: approval.id, alreadyPending: false };
}

function sameRead(a: ReadBefore, b: ReadBefore): boolean {
  return a.skill === b.skill && a.collection === b.collection && a.id === b.id;
}

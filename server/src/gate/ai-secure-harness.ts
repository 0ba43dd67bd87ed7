// The gate every model tool call passes: validate → capabilities → risk → execute now, or ask a human.
import { randomUUID } from 'node:crypto';
import {
  type ErrorDetail,
  type SkillOutcome,
  type UndoRef,
  DEFAULT_APPROVAL_TTL_SECONDS,
  SKILL_NAMES,
  findSkill,
  hasCapabilities,
  missingCapabilities,
  parseSkillArguments,
  quotedSkill,
  writes,
} from '@lumibase/shared';
import { planOfOne, type TurnPlan } from './turn-plan.js';
import { actorOf, type HarnessContext, type HarnessStores, type ToolCall } from './harness-context.js';
import { commitPlan, planStep, type PlanningDependencies } from './plan-commit.js';
import type { NewAuditEntry } from '../store/ai/audit.store.js';
import { gateTier } from './tier.js';
import { CountedSkillLimits, type SkillLimits } from './skill-limits.js';
import type { ApprovalTargets } from '../skills/approval-targets.js';
import { describeFailure, jsonSafe } from '../approvals/describe-failure.js';
import { type SkillExecutors, runSkillExecutor } from '../skills/skill-executors.js';

export type { HarnessActor, HarnessContext, HarnessStores, ToolCall } from './harness-context.js';

/** APPROVAL_TTL_SECONDS' default (72 hours). */
export const DEFAULT_APPROVAL_TTL_MS = DEFAULT_APPROVAL_TTL_SECONDS * 1000;

export interface AISecureHarnessOptions {
  stores: HarnessStores;
  executors: SkillExecutors;
  clock?: () => Date;
  /** A new id per call, never one used before: a safe call runs as its operation's first run (SkillExecutionContext.firstRun). */
  newOperationId?: () => string;
  /** The revision that undoes the item change an operation made (docs/API.md: outcomes carry `undo`). */
  undoFor?: (siteId: string, operationId: string) => Promise<UndoRef | undefined>;
  /** Receives executor errors that are not DomainErrors (logged by the composition root). */
  reportError?: (error: unknown, context: { skillName: string; siteId: string }) => void;
  /** Takes each approval's target and impact at creation (required: a wiring cannot forget target binding). */
  targets: ApprovalTargets;
  /** How long a pending approval waits for a decision (APPROVAL_TTL_SECONDS). */
  approvalTtlMs?: number;
  /** The policy's hourly limits per skill per site; servers count in Redis, unset is this process's count. */
  limits?: SkillLimits;
}

const MAX_NAME_SHOWN = 200;

export class AISecureHarness {
  private readonly stores: HarnessStores;
  private readonly executors: SkillExecutors;
  private readonly clock: () => Date;
  private readonly newOperationId: () => string;
  private readonly reportError: AISecureHarnessOptions['reportError'];
  private readonly undoFor: AISecureHarnessOptions['undoFor'];
  private readonly targets: ApprovalTargets;
  private readonly approvalTtlMs: number;
  private readonly limits: SkillLimits;

  constructor({
    stores,
    executors,
    clock = () => new Date(),
    newOperationId = randomUUID,
    reportError,
    undoFor,
    targets,
    approvalTtlMs = DEFAULT_APPROVAL_TTL_MS,
    limits = CountedSkillLimits.memory(),
  }: AISecureHarnessOptions) {
    this.limits = limits;
    this.undoFor = undoFor;
    this.stores = stores;
    this.targets = targets;
    this.approvalTtlMs = approvalTtlMs;
    this.executors = executors;
    this.clock = clock;
    this.newOperationId = newOperationId;
    this.reportError = reportError;
  }

  /**
   * Never throws for anything the model sent or an executor did: every answer is data, and each
   * call writes exactly one audit entry. Store failures (the database is down) do propagate.
   */
  async execute(context: HarnessContext, toolCall: ToolCall): Promise<SkillOutcome> {
    const { audit, policy, notices } = this.stores.forSite(context.siteId);
    const name = typeof toolCall.name === 'string' ? toolCall.name : String(toolCall.name);
    const record = (entry: Omit<NewAuditEntry, 'actor' | 'createdAt'>) =>
      audit.append({ ...entry, actor: actorOf(context), createdAt: this.clock().toISOString() });

    const skill = findSkill(name);
    if (!skill) {
      const shownName = name.slice(0, MAX_NAME_SHOWN);
      const message = `Unknown skill "${shownName}". Available skills: ${SKILL_NAMES.join(', ')}.`;
      const outcome = denied({ name: shownName, arguments: jsonSafe(toolCall.arguments) }, 'unknown_skill', message, [
        { path: 'name', message: 'unknown skill' },
      ]);
      await record({ action: 'denied', skillName: shownName, detail: denialDetail(outcome, context) });
      return outcome;
    }

    const parsed = parseSkillArguments(skill, toolCall.arguments);
    if (!parsed.success) {
      const summary = parsed.details.map((detail) => `${detail.path || '(arguments)'}: ${detail.message}`).join('; ');
      const outcome = denied(
        { name, arguments: jsonSafe(toolCall.arguments) },
        'invalid_arguments',
        `Invalid arguments for ${quotedSkill(name)}: ${summary}`,
        parsed.details,
      );
      await record({ action: 'denied', skillName: name, detail: denialDetail(outcome, context) });
      return outcome;
    }
    const call = { name, arguments: parsed.arguments };

    if (!hasCapabilities(context.actor, skill.requiredCapabilities)) {
      const missing = missingCapabilities(context.actor, skill.requiredCapabilities);
      const message = `${quotedSkill(name)} needs ${missing.join(', ')}, which you do not hold in this site.`;
      const details = missing.map((capability) => ({ path: 'capabilities', message: `missing ${capability}` }));
      const outcome = denied(call, 'missing_capabilities', message, details);
      await record({ action: 'denied', skillName: name, detail: denialDetail(outcome, context) });
      return outcome;
    }

    // The site's policy may turn a skill off, make a safe one ask or warn; it can never make a dangerous one run at once,
    // and a safe write after a content read in the same run is held at least at its afterContentRead (gate/tier.ts).
    const sitePolicy = await policy.get();
    const { tier, escalated } = gateTier(skill, sitePolicy, context.readBefore);
    if (tier === 'off') {
      const outcome = {
        status: 'denied' as const,
        skill: call,
        reason: 'turned_off' as const,
        message: `${quotedSkill(name)} is turned off for this site`,
      };
      await record({
        action: 'denied',
        skillName: name,
        detail: {
          reason: outcome.reason,
          message: outcome.message,
          arguments: parsed.arguments,
          ...(context.conversationId ? { conversationId: context.conversationId } : {}),
        },
      });
      return outcome;
    }

    // The site's hourly limit of the skill: executions and approvals requested both count (a refusal does not).
    const limit = sitePolicy.limits[name];
    if (limit !== undefined && !(await this.limits.take(context.siteId, name, limit))) {
      const outcome = {
        status: 'denied' as const,
        skill: call,
        reason: 'limit_reached' as const,
        message: `the hourly limit of ${quotedSkill(name)} for this site is reached`,
      };
      await record({
        action: 'denied',
        skillName: name,
        detail: {
          reason: outcome.reason,
          message: outcome.message,
          limit,
          arguments: parsed.arguments,
          ...(context.conversationId ? { conversationId: context.conversationId } : {}),
        },
      });
      return outcome;
    }

    // The risk rule looks at the skill only: `*` got the call this far and no further.
    // In a turn with a plan: from the first call that needs an approval on, every writing call is its next step.
    if (context.plan && (tier === 'ask' || (context.plan.steps.length > 0 && writes(skill))))
      return this.planStep(context, context.plan, call, record);
    if (tier === 'ask') {
      // A plan of one step, stored at once by the same commit as a turn's plan (plan-commit.ts). The same request still
      // waiting in this site: pointed at rather than asking the admins twice (also when both arrive at the same instant).
      // A plan with a step always commits to an approval (undefined is for a plan with none).
      const { approvalId, alreadyPending } = (await commitPlan(this.planning(), context, planOfOne(call), {
        record,
        ...(escalated ? { requested: { escalated: 'afterContentRead' } } : {}),
      }))!;
      return {
        status: 'pending_approval',
        skill: call,
        approvalId,
        message: alreadyPending
          ? `${quotedSkill(name)} with these arguments is already waiting for a human admin's approval (approval ${approvalId}); no second request was made.`
          : `${quotedSkill(name)} needs a human admin's approval; approval ${approvalId} is pending.`,
      };
    }

    const operationId = this.newOperationId();
    try {
      const data = await runSkillExecutor(this.executors, skill.name, parsed.arguments, {
        siteId: context.siteId,
        actor: actorOf(context),
        operationId,
        // Made for this call just now, and never run again: nothing can carry it yet.
        firstRun: true,
        via: 'copilot',
      });
      const warned = tier === 'warn';
      // The audit entry and the undo look-up at once (neither needs the other). A skill that writes nothing has no
      // undo to look for; for one that does, the change is made: failing to find its undo must not turn it into a denial.
      const [, undo] = await Promise.all([
        record({
          action: 'executed',
          skillName: name,
          detail: {
            arguments: parsed.arguments,
            operationId,
            ...(warned ? { tier: 'warn', ...(context.readBefore?.length ? { readBefore: context.readBefore } : {}) } : {}),
          },
        }),
        writes(skill) ? this.undoFor?.(context.siteId, operationId).catch(() => undefined) : undefined,
      ]);
      if (warned) {
        // Every admin of the site is told what ran, for whom, after reading what, and how to undo it.
        await notices.insert({
          skillName: name,
          arguments: parsed.arguments,
          actor: { id: context.actor.id, name: actorOf(context).name },
          ...(undo ? { undo } : {}),
          ...(context.readBefore?.length ? { readBefore: context.readBefore } : {}),
          createdAt: this.clock().toISOString(),
        });
      }
      return { status: 'executed', skill: call, data, ...(undo ? { undo } : {}) };
    } catch (error) {
      // The contract has three statuses: a safe skill that failed is denied, with why (lead's decision).
      const failure = describeFailure(error, name, (internal) => this.reportError?.(internal, { skillName: name, siteId: context.siteId }));
      const outcome: SkillOutcome = {
        status: 'denied',
        skill: call,
        reason: 'execution_failed',
        message: failure.code === 'INTERNAL' ? failure.message : `${quotedSkill(name)} failed: ${failure.message}`,
        ...(failure.code ? { code: failure.code } : {}),
        ...(failure.details ? { details: failure.details } : {}),
      };
      await record({
        action: 'denied',
        skillName: name,
        detail: { reason: 'execution_failed', ...failure, arguments: parsed.arguments, operationId },
      });
      return outcome;
    }
  }

  /** The call as the plan's next step (gate/plan-commit.ts). */
  private planStep(
    context: HarnessContext,
    plan: TurnPlan,
    call: { name: string; arguments: Record<string, unknown> },
    record: (entry: Omit<NewAuditEntry, 'actor' | 'createdAt'>) => Promise<unknown>,
  ): Promise<SkillOutcome> {
    return planStep(this.planning(), context, plan, call, record);
  }

  /** Stores the turn's plan as one approval (gate/plan-commit.ts). */
  commitPlan(context: HarnessContext, plan: TurnPlan): Promise<{ approvalId: string; alreadyPending: boolean } | undefined> {
    return commitPlan(this.planning(), context, plan);
  }

  private planning(): PlanningDependencies {
    return { stores: this.stores, targets: this.targets, clock: this.clock, approvalTtlMs: this.approvalTtlMs };
  }
}

function denied(
  skill: { name: string; arguments: unknown },
  reason: 'unknown_skill' | 'invalid_arguments' | 'missing_capabilities',
  message: string,
  details: ErrorDetail[],
) {
  return { status: 'denied' as const, skill, reason, message, details };
}

function denialDetail(outcome: ReturnType<typeof denied>, context: HarnessContext): Record<string, unknown> {
  return {
    reason: outcome.reason,
    message: outcome.message,
    details: outcome.details,
    arguments: outcome.skill.arguments,
    ...(context.conversationId ? { conversationId: context.conversationId } : {}),
  };
}

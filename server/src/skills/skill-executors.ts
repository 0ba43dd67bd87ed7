// The seam between the harness and the code that performs skills (skills/, over the CMS services).
import type { ActorRef, RevisionVia, SkillArguments, SkillName } from '@lumibase/shared';

export interface SkillExecutionContext {
  siteId: string;
  /** On whose authority the skill runs: the requester of a safe call, the decider of an approval. */
  actor: ActorRef;
  /**
   * Idempotency key. For an approval it is the approval id, so a re-delivered job has the effect
   * of one run; for a safe call it is fresh per call.
   */
  operationId: string;
  /**
   * The caller knows no earlier run of this operation began: a safe call's fresh id, a worker's first start of the
   * decision's own job, a plan step it just marked running. Writes keyed by the operation id then skip looking for an
   * earlier run's effect (createItem: one insert). Absent means "may be a repeat", which is always safe.
   */
  firstRun?: boolean;
  /**
   * Where a skill leaves bookkeeping that may finish after it answered (its run-once ledger entry marked complete)
   * instead of awaiting it: the caller settles the approval meanwhile and awaits these after (run-approval.ts).
   * Absent: awaited before the skill answers.
   */
  deferred?: DeferredWork[];
  /** How the change came about, for item revisions: `copilot` (a safe call) or `approval`. */
  via?: RevisionVia;
  /** The approval being executed, if any. */
  approvalId?: string;
}

/** Bookkeeping under way; it never rejects: it settles to how the work went. */
export type DeferredWork = Promise<PromiseSettledResult<void>>;

/** Receives arguments already parsed with the skill's schema; throws a DomainError to fail. */
export type SkillExecutor<Name extends SkillName> = (args: SkillArguments<Name>, context: SkillExecutionContext) => Promise<unknown>;

export type SkillExecutors = { [Name in SkillName]: SkillExecutor<Name> };

/** Calls the executor of a skill whose arguments were parsed with that skill's schema. */
export function runSkillExecutor(
  executors: SkillExecutors,
  name: SkillName,
  args: Record<string, unknown>,
  context: SkillExecutionContext,
): Promise<unknown> {
  const executor = executors[name] as (args: Record<string, unknown>, context: SkillExecutionContext) => Promise<unknown>;
  return executor(args, context);
}

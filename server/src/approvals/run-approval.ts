// Executes an approval that a decision moved to `executing`, then settles it: approved or pending again.
// The skill-execution worker calls it per job (ApprovalJobRunner).
import { type Approval, findSkill, parseSkillArguments, quotedSkill } from '@lumibase/shared';
import type { ApprovalRepository } from '../store/ai/approval.store.js';
import { type ExecutionOutcome, settle } from './approval-operations.js';
import { describeFailure } from './describe-failure.js';
import { type DeferredWork, type SkillExecutors, runSkillExecutor } from '../skills/skill-executors.js';
import { retriesFailure, TransientExecutionError } from './transient-failure.js';

export { TransientExecutionError } from './transient-failure.js';

export interface RunApprovalOptions {
  approval: Approval;
  approvals: Pick<ApprovalRepository, 'get' | 'transition'>;
  executors: SkillExecutors;
  clock?: () => Date;
  reportError?: (error: unknown, context: { skillName: string; siteId: string }) => void;
  /**
   * A failure that retrying may fix (an internal error: a dropped connection, a timeout) settles
   * the approval as pending unless this is false; then it throws TransientExecutionError and the
   * approval stays `executing` for the queue's next try (transient-failure.ts, as for a plan's step).
   */
  settleTransientFailures?: boolean;
  /** No earlier run of the approval's operation can have begun (approval-job-runner.ts): SkillExecutionContext.firstRun. */
  firstRun?: boolean;
}

async function execute(
  { approval, executors, reportError, firstRun }: RunApprovalOptions,
  deferred: DeferredWork[],
): Promise<ExecutionOutcome> {
  const skill = findSkill(approval.skillName);
  if (!skill) return { ok: false, failure: { message: `Unknown skill "${approval.skillName}"`, code: 'VALIDATION_FAILED' } };
  // Stored arguments crossed a process boundary (a job, a restart): parse them again. They were
  // parsed before being stored, so this gives back arguments deep-equal to the stored ones.
  const parsed = parseSkillArguments(skill, approval.arguments);
  if (!parsed.success) {
    return {
      ok: false,
      failure: {
        message: `Stored arguments no longer valid for ${quotedSkill(skill.name)}`,
        code: 'VALIDATION_FAILED',
        details: parsed.details,
      },
    };
  }
  const actor = approval.decidedBy ?? approval.requestedBy;
  try {
    const result = await runSkillExecutor(executors, skill.name, parsed.arguments, {
      siteId: approval.siteId,
      actor,
      operationId: approval.id,
      ...(firstRun ? { firstRun } : {}),
      deferred,
      via: 'approval',
      approvalId: approval.id,
    });
    return { ok: true, result };
  } catch (error) {
    return {
      ok: false,
      failure: describeFailure(error, skill.name, (internal) =>
        reportError?.(internal, { skillName: skill.name, siteId: approval.siteId }),
      ),
    };
  }
}

/**
 * Returns the approval as it stands afterwards. If its status changed under us (a reconciler
 * settled it), the stored state wins and nothing is audited twice. The audit entry and the
 * conversation note are owed in the settling write itself (approval-operations.ts).
 */
export async function runApproval(options: RunApprovalOptions): Promise<Approval> {
  const { approval, approvals, clock = () => new Date() } = options;
  // The skill's ledger completion runs beside the settling write: an approval settled before its ledger entry is
  // complete is never run again (a job for it finds it settled), and one whose settling did not land is re-run resumed.
  const deferred: DeferredWork[] = [];
  const outcome = await execute(options, deferred);
  if (!outcome.ok && retriesFailure(outcome.failure, { settleTransient: options.settleTransientFailures })) {
    throw new TransientExecutionError(outcome.failure.message);
  }
  const settled = await settle(approvals, approval, { outcome, at: clock() });
  // A failed completion fails the job only now, with the approval settled: its retry finds it settled and skips.
  for (const done of await Promise.all(deferred)) if (done.status === 'rejected') throw done.reason;
  return settled ?? (await approvals.get(approval.id)) ?? approval;
}

// Executes an approval that a decision moved to `executing`, then settles it: approved or pending again.
// The skill-execution worker calls it per job (ApprovalJobRunner).
import { type Approval, findSkill, parseSkillArguments } from '@lumibase/shared';
import type { ApprovalRepository } from '../store/ai/approval.store.js';
import type { AuditRepository } from '../store/ai/audit.store.js';
import type { ConversationRepository } from '../store/ai/conversation.store.js';
import { noteApprovalOutcome } from './note-approval-outcome.js';
import { type Failure, describeFailure } from '../harness/describe-failure.js';
import { type SkillExecutors, runSkillExecutor } from '../harness/skill-executors.js';

export interface RunApprovalOptions {
  approval: Approval;
  approvals: ApprovalRepository;
  audit: AuditRepository;
  executors: SkillExecutors;
  /** The approval's conversation is told the outcome (approved with result, failed with error). */
  conversations?: Pick<ConversationRepository, 'appendMessage'>;
  clock?: () => Date;
  reportError?: (error: unknown, context: { skillName: string; siteId: string }) => void;
  /**
   * A failure that retrying may fix (an internal error: a dropped connection, a timeout) settles
   * the approval as pending unless this is false; then it throws TransientExecutionError and the
   * approval stays `executing` for the queue's next try.
   */
  settleTransientFailures?: boolean;
}

/** Codes of failures worth another try; domain refusals (validation, permission, not found) are final. */
const TRANSIENT_CODES = new Set(['INTERNAL', 'UNAVAILABLE']);

export class TransientExecutionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransientExecutionError';
  }
}

type Execution = { ok: true; result: unknown } | { ok: false; failure: Failure };

async function execute({ approval, executors, reportError }: RunApprovalOptions): Promise<Execution> {
  const skill = findSkill(approval.skillName);
  if (!skill) return { ok: false, failure: { message: `Unknown skill "${approval.skillName}"`, code: 'VALIDATION_FAILED' } };
  // Stored arguments crossed a process boundary (a job, a restart): parse them again. They were
  // parsed before being stored, so this gives back arguments deep-equal to the stored ones.
  const parsed = parseSkillArguments(skill, approval.arguments);
  if (!parsed.success) {
    return {
      ok: false,
      failure: { message: `Stored arguments no longer valid for ${skill.name}`, code: 'VALIDATION_FAILED', details: parsed.details },
    };
  }
  const actor = approval.decidedBy ?? approval.requestedBy;
  try {
    const result = await runSkillExecutor(executors, skill.name, parsed.arguments, {
      siteId: approval.siteId,
      actor,
      operationId: approval.id,
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
 * settled it), the stored state wins and nothing is audited twice.
 */
export async function runApproval(options: RunApprovalOptions): Promise<Approval> {
  const { approval, approvals, audit, clock = () => new Date() } = options;
  const actor = approval.decidedBy ?? approval.requestedBy;
  const execution = await execute(options);
  const at = clock();
  if (execution.ok) {
    const approved = await approvals.transition(approval.id, {
      from: 'executing',
      to: 'approved',
      at,
      set: execution.result === undefined ? {} : { result: execution.result },
      unset: ['lastError'],
    });
    if (!approved) return (await approvals.get(approval.id)) ?? approval;
    await auditApproved({ approval: approved, audit, conversations: options.conversations, at });
    return approved;
  }
  const { failure } = execution;
  if (options.settleTransientFailures === false && TRANSIENT_CODES.has(failure.code ?? 'INTERNAL')) {
    throw new TransientExecutionError(failure.message);
  }
  const pending = await approvals.transition(approval.id, {
    from: 'executing',
    to: 'pending',
    at,
    set: { lastError: failure.message },
    unset: ['decidedBy', 'decidedAt'],
  });
  if (!pending) return (await approvals.get(approval.id)) ?? approval;
  await audit.append({
    action: 'execution_failed',
    skillName: approval.skillName,
    approvalId: approval.id,
    actor,
    detail: { attempt: pending.attempts, ...failure },
    createdAt: at.toISOString(),
  });
  await noteApprovalOutcome({ conversations: options.conversations, approval: pending, at });
  return pending;
}

/** The audit entry (and conversation note) of an execution that settled its approval approved. */
async function auditApproved({
  approval,
  audit,
  conversations,
  at,
}: {
  approval: Approval;
  audit: AuditRepository;
  conversations: RunApprovalOptions['conversations'];
  at: Date;
}): Promise<void> {
  const actor = approval.decidedBy ?? approval.requestedBy;
  await audit.append({
    action: 'approved',
    skillName: approval.skillName,
    approvalId: approval.id,
    actor,
    detail: { attempt: approval.attempts },
    createdAt: at.toISOString(),
  });
  await noteApprovalOutcome({ conversations, approval, at });
}

/**
 * A worker that died after settling an approval approved and before auditing it leaves the one
 * execution unaudited; the job, delivered again, finds the approval settled and finishes that here:
 * the audit entry of this attempt is written once (none is added when it is there).
 */
export async function finishApprovedAudit({
  approval,
  audit,
  conversations,
  clock = () => new Date(),
}: Pick<RunApprovalOptions, 'approval' | 'audit' | 'conversations' | 'clock'>): Promise<boolean> {
  if (approval.status !== 'approved') return false;
  const entries = await audit.ofApproval(approval.id);
  const audited = entries.some((entry) => entry.action === 'approved' && entry.detail?.attempt === approval.attempts);
  if (audited) return false;
  await auditApproved({ approval, audit, conversations, at: clock() });
  return true;
}

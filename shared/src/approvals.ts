// Approvals (dangerous skill calls waiting for a human) and audit entries, as the server holds them.
import { z } from 'zod';

export const APPROVAL_STATUSES = ['pending', 'executing', 'approved', 'rejected'] as const;
export const ApprovalStatus = z.enum(APPROVAL_STATUSES);
export type ApprovalStatus = z.infer<typeof ApprovalStatus>;

export const APPROVAL_DECISIONS = ['approved', 'rejected'] as const;
export const ApprovalDecision = z.enum(APPROVAL_DECISIONS);
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

/** Who asked or decided, as shown to other admins. */
export const ActorRef = z.object({ id: z.string().min(1), name: z.string() });
export type ActorRef = z.infer<typeof ActorRef>;

/** Content the model read in the same turn before it proposed the call (listItems, searchItems, aiContentAssist). */
export const ReadBefore = z.object({ skill: z.string(), collection: z.string().optional(), id: z.string().optional() });
export type ReadBefore = z.infer<typeof ReadBefore>;

/**
 * The conversation a dangerous call came from, so the reviewer sees what the admin typed; `readBefore`
 * because content the model read may have steered it (the Studio shows it as a caution).
 */
export const ApprovalContext = z.object({
  message: z.string(),
  conversationId: z.string().optional(),
  readBefore: z.array(ReadBefore).optional(),
});
export type ApprovalContext = z.infer<typeof ApprovalContext>;

/** The JSON arguments of a skill call, kept exactly as parsed. */
export const SkillArgumentsRecord = z.record(z.string(), z.unknown());

/** The approval's fields; `date` is `z.date()` inside a process and an ISO string on the wire. */
export function approvalShape<DateSchema extends z.ZodType>(date: DateSchema) {
  return {
    id: z.string(),
    siteId: z.string(),
    skillName: z.string(),
    arguments: SkillArgumentsRecord,
    context: ApprovalContext,
    status: ApprovalStatus,
    requestedBy: ActorRef,
    decidedBy: ActorRef.optional(),
    decidedAt: date.optional(),
    reason: z.string().optional(),
    result: z.unknown().optional(),
    lastError: z.string().optional(),
    /** Executions started (each approve that won the compare-and-set). */
    attempts: z.number().int().min(0),
    createdAt: date,
    updatedAt: date,
  };
}

export const Approval = z.object(approvalShape(z.date()));
export type Approval = z.infer<typeof Approval>;

export const AUDIT_ACTIONS = ['executed', 'denied', 'approval_requested', 'approved', 'rejected', 'execution_failed', 'restored'] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditAction>;

export function auditEntryShape<DateSchema extends z.ZodType>(date: DateSchema) {
  return {
    id: z.string(),
    siteId: z.string(),
    action: AuditAction,
    skillName: z.string().optional(),
    approvalId: z.string().optional(),
    actor: ActorRef,
    /** What happened, as JSON: the arguments, the message and details of a denial, an error. */
    detail: z.record(z.string(), z.unknown()).optional(),
    createdAt: date,
    /** The hash chain (API.md): 1, 2, … per site; absent only on entries written before the chain existed. */
    seq: z.number().int().min(1).optional(),
    prevHash: z.string().optional(),
    hash: z.string().optional(),
  };
}

export const AuditEntry = z.object(auditEntryShape(z.date()));
export type AuditEntry = z.infer<typeof AuditEntry>;

// /ai/approvals: list, read and decide approvals (wire shapes: ISO dates, string ids).
import { z } from 'zod';
import { Approval, ApprovalDecision, ApprovalStatus, SkillArgumentsRecord } from '../approvals.js';

export const APPROVALS_LIST_MAX = 100;

/** The wire shape is the record itself: its dates are ISO strings everywhere. */
export const ApprovalJson = Approval;
export type ApprovalJson = Approval;

export const ListApprovalsQuery = z.object({ status: ApprovalStatus.default('pending') });
export type ListApprovalsQuery = z.infer<typeof ListApprovalsQuery>;

export const ListApprovalsResponse = z.object({
  data: z.array(ApprovalJson).max(APPROVALS_LIST_MAX),
  meta: z.object({ total: z.number().int().min(0), seq: z.number().int().min(0) }),
});
export type ListApprovalsResponse = z.infer<typeof ListApprovalsResponse>;

/** What `decide` answers to a body that still carries edited arguments: editing is its own step. */
export const EDIT_FIRST_MESSAGE =
  'Arguments cannot be changed while deciding: save the edit first (PATCH /ai/approvals/:id), review its impact, then approve that revision';

export const DecideApprovalRequest = z
  .object({
    decision: ApprovalDecision,
    reason: z.string().trim().max(1000).optional(),
    /** The revision the approver saw: a different current one → 409. */
    revision: z.number().int().min(1).optional(),
    /** Refused: what runs is exactly what the approved revision showed (edits go through PATCH). */
    arguments: z.unknown().optional(),
  })
  .refine((body) => body.arguments === undefined, { path: ['arguments'], message: EDIT_FIRST_MESSAGE });
export type DecideApprovalRequest = z.infer<typeof DecideApprovalRequest>;

/** One step's edit in `steps`: its new arguments, or null to remove the step. */
export const StepEdit = z.strictObject({ arguments: SkillArgumentsRecord }).nullable();

/**
 * `PATCH /ai/approvals/:id`: a new revision with edited arguments (`arguments` for a one-step approval, or `steps`,
 * one entry per step). Validated against the skill's schema by the server; nothing runs.
 */
export const EditApprovalRequest = z
  .strictObject({
    /** The revision the editor saw: a different current one → 409. */
    revision: z.number().int().min(1),
    arguments: SkillArgumentsRecord.optional(),
    steps: z.array(StepEdit).min(1).max(100).optional(),
  })
  .refine((body) => (body.arguments === undefined) !== (body.steps === undefined), {
    path: ['arguments'],
    message: 'give either arguments or steps (one of the two)',
  });
export type EditApprovalRequest = z.infer<typeof EditApprovalRequest>;

export const ApprovalResponse = z.object({ data: ApprovalJson });
export type ApprovalResponse = z.infer<typeof ApprovalResponse>;

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

export const DecideApprovalRequest = z
  .object({
    decision: ApprovalDecision,
    reason: z.string().trim().max(1000).optional(),
    /** The revision the approver saw: a different current one → 409. */
    revision: z.number().int().min(1).optional(),
    /** The approver's edited arguments (only with `approved`), validated with the skill's schema. */
    arguments: SkillArgumentsRecord.optional(),
  })
  .refine((body) => body.arguments === undefined || body.decision === 'approved', {
    path: ['arguments'],
    message: 'arguments can only be edited when approving',
  });
export type DecideApprovalRequest = z.infer<typeof DecideApprovalRequest>;

export const ApprovalResponse = z.object({ data: ApprovalJson });
export type ApprovalResponse = z.infer<typeof ApprovalResponse>;

// What one skill call came to: the harness's answer, carried by chat responses and to the model.
import { z } from 'zod';
import { ErrorDetailSchema } from '../api/envelope.js';

export const SkillCall = z.object({ name: z.string(), arguments: z.unknown() });
export type SkillCall = z.infer<typeof SkillCall>;

/**
 * Why a call was denied. `execution_failed`: an authorised safe skill whose executor failed (a
 * missing collection, item data that does not match the fields); the contract has three statuses,
 * so this is a denial too, with the failure's message, code and details. `model_failed`: the language
 * model failed (timeout, 5xx after retries, unreadable output); it names no skill and nothing ran.
 * `turned_off`: the site's Copilot policy has the skill `off`. `limit_reached`: the site's hourly limit of the skill, or
 * the cap on tool calls in one model step, is used up. `already_rejected`: a run that continues after its plan was
 * rejected proposed the same call again; an admin has just said no to it, so it is not asked again.
 */
export const DENIAL_REASONS = [
  'unknown_skill',
  'invalid_arguments',
  'missing_capabilities',
  'execution_failed',
  'model_failed',
  'turned_off',
  'limit_reached',
  'already_rejected',
] as const;
export const DenialReason = z.enum(DENIAL_REASONS);
export type DenialReason = z.infer<typeof DenialReason>;

/** Restoring `revision` of the item undoes what the call changed (docs/API.md, "Revisions, trash and undo"). */
export const UndoRef = z.object({ collection: z.string(), id: z.string(), revision: z.number().int().min(1) });
export type UndoRef = z.infer<typeof UndoRef>;

export const ExecutedOutcome = z.object({
  status: z.literal('executed'),
  /** Absent for a reply in which the model called no skill. */
  skill: SkillCall.optional(),
  data: z.unknown().optional(),
  message: z.string().optional(),
  undo: UndoRef.optional(),
});

/**
 * What became of an approval, told back to its conversation as data (the model reads it as a tool
 * result, never as its own words): who decided and why are quoted from people, not the Copilot.
 */
export const ApprovalDecisionNote = z.object({
  status: z.enum(['approved', 'rejected', 'expired', 'failed']),
  decidedBy: z.object({ name: z.string() }).optional(),
  reason: z.string().optional(),
  result: z.unknown().optional(),
  error: z.string().optional(),
});
export type ApprovalDecisionNote = z.infer<typeof ApprovalDecisionNote>;

export const PendingApprovalOutcome = z.object({
  status: z.literal('pending_approval'),
  skill: SkillCall,
  approvalId: z.string(),
  message: z.string(),
  /** The call's step in its turn's plan (from 1; docs/API.md, "Runs and plans"). */
  step: z.number().int().min(1).optional(),
  /** Only in a conversation's note on a settled approval: its outcome. */
  decision: ApprovalDecisionNote.optional(),
});

export const DeniedOutcome = z.object({
  status: z.literal('denied'),
  /** Absent only for `model_failed`. */
  skill: SkillCall.optional(),
  reason: DenialReason,
  message: z.string(),
  /** For `execution_failed`: the error code of the failure (NOT_FOUND, VALIDATION_FAILED, CONFLICT, INTERNAL…). */
  code: z.string().optional(),
  details: z.array(ErrorDetailSchema).optional(),
});

export const SkillOutcome = z.discriminatedUnion('status', [ExecutedOutcome, PendingApprovalOutcome, DeniedOutcome]);
export type SkillOutcome = z.infer<typeof SkillOutcome>;
export type SkillOutcomeStatus = SkillOutcome['status'];

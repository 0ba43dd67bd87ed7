// /ai/policy: the site's Copilot policy — who may approve their own request, how each skill runs, what a write after
// a content read needs, and each skill's hourly limit.
import { z } from 'zod';
import { isDangerous } from '../risk.js';
import { SKILL_LIST, findSkill } from '../skills/catalog.js';
import { allowedModes, permittedMode, SkillMode } from './skill-modes.js';

/** What a safe write proposed after a content read in the same run is taken up to. */
export const AFTER_CONTENT_READ_MODES = ['warn', 'ask'] as const;
export const AfterContentRead = z.enum(AFTER_CONTENT_READ_MODES);
export type AfterContentRead = z.infer<typeof AfterContentRead>;
export const DEFAULT_AFTER_CONTENT_READ: AfterContentRead = 'ask';

/** Runs (executions and approvals requested) per skill per site per hour. */
export const SKILL_LIMIT_MAX = 1_000_000;
export const SkillLimit = z.number().int().min(1).max(SKILL_LIMIT_MAX);

export const CopilotPolicy = z.object({
  selfApproval: z.boolean(),
  skills: z.record(z.string(), SkillMode),
  afterContentRead: AfterContentRead,
  /** Only the skills that have a limit. */
  limits: z.record(z.string(), SkillLimit),
});
export type CopilotPolicy = z.infer<typeof CopilotPolicy>;

/**
 * PUT body: skills not named keep their mode and limit; a limit `null` removes it. An unknown skill, a dangerous one
 * set to `auto` or `warn`, or `warn` for a skill that only reads → 400.
 */
export const PutPolicyRequest = z
  .object({
    selfApproval: z.boolean().optional(),
    skills: z.record(z.string(), SkillMode).optional(),
    afterContentRead: AfterContentRead.optional(),
    limits: z.record(z.string(), SkillLimit.nullable()).optional(),
  })
  .superRefine((body, context) => {
    for (const [name, mode] of Object.entries(body.skills ?? {})) {
      const skill = findSkill(name);
      if (!skill) context.addIssue({ code: 'custom', path: ['skills', name], message: `unknown skill "${name}"` });
      else if (!allowedModes(skill).includes(mode))
        context.addIssue({
          code: 'custom',
          path: ['skills', name],
          message: isDangerous(skill)
            ? `${name} is dangerous and can never run without an approval`
            : `${name} only reads: warn is for skills that write`,
        });
    }
    for (const name of Object.keys(body.limits ?? {}))
      if (!findSkill(name)) context.addIssue({ code: 'custom', path: ['limits', name], message: `unknown skill "${name}"` });
  });
export type PutPolicyRequest = z.infer<typeof PutPolicyRequest>;

export const PolicyResponse = z.object({ data: CopilotPolicy });

/** The seeds' rule: dangerous skills ask, safe ones run at once. */
export function defaultSkillMode(skillName: string): SkillMode {
  const skill = findSkill(skillName);
  return skill && isDangerous(skill) ? 'ask' : 'auto';
}

/** A policy as stored: only what differs from the defaults. */
export interface StoredPolicy {
  selfApproval?: boolean;
  skills?: Record<string, SkillMode>;
  afterContentRead?: AfterContentRead;
  limits?: Record<string, number>;
}

/**
 * Every skill with its effective mode: the stored overrides over the defaults. A dangerous skill is never `auto` or
 * `warn` (it asks), and a skill that only reads is never `warn` (it runs: there is nothing to undo).
 */
export function effectivePolicy(stored: StoredPolicy | null): CopilotPolicy {
  const skills: Record<string, SkillMode> = {};
  const limits: Record<string, number> = {};
  for (const skill of SKILL_LIST) {
    const mode = stored?.skills?.[skill.name] ?? defaultSkillMode(skill.name);
    skills[skill.name] = permittedMode(skill, mode);
    const limit = stored?.limits?.[skill.name];
    if (typeof limit === 'number' && Number.isInteger(limit) && limit >= 1) limits[skill.name] = limit;
  }
  return {
    selfApproval: stored?.selfApproval ?? true,
    skills,
    afterContentRead: stored?.afterContentRead === 'warn' ? 'warn' : DEFAULT_AFTER_CONTENT_READ,
    limits,
  };
}

export const SELF_APPROVAL_MESSAGE = 'Someone other than the requester must approve';
export const EDITOR_APPROVAL_MESSAGE = 'Someone other than the last editor must approve';

interface DecidableApproval {
  requestedBy: { id: string };
  /** The last person who edited its arguments (PATCH): four-eyes covers them as it covers the requester. */
  editedBy?: { id: string } | undefined;
}

/** Whether `deciderId` asked for the approval themselves. */
export function isOwnRequest(approval: { requestedBy: { id: string } }, deciderId: string | undefined): boolean {
  return approval.requestedBy.id === deciderId;
}

/** Whether `deciderId` made the approval's latest edit. */
export function isLastEditor(approval: DecidableApproval, deciderId: string | undefined): boolean {
  return deciderId !== undefined && approval.editedBy?.id === deciderId;
}

/**
 * The self-approval rule, for the server's decision and the Studio's approvals page alike: neither the requester nor
 * the last editor may approve unless the site's policy allows it; the message says which. Anyone else may; rejecting
 * (withdrawing one's own request) is never refused by it.
 */
export function selfApprovalRefusal(
  approval: DecidableApproval,
  deciderId: string | undefined,
  policy: Pick<CopilotPolicy, 'selfApproval'>,
): string | undefined {
  if (policy.selfApproval) return undefined;
  if (isOwnRequest(approval, deciderId)) return SELF_APPROVAL_MESSAGE;
  if (isLastEditor(approval, deciderId)) return EDITOR_APPROVAL_MESSAGE;
  return undefined;
}

export function refusesSelfApproval(
  approval: DecidableApproval,
  deciderId: string | undefined,
  policy: Pick<CopilotPolicy, 'selfApproval'>,
): boolean {
  return selfApprovalRefusal(approval, deciderId, policy) !== undefined;
}

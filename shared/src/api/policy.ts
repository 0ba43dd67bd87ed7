// /ai/policy: the site's Copilot policy — who may approve their own request, and how each skill runs.
import { z } from 'zod';
import { isDangerous } from '../risk.js';
import { SKILL_LIST, findSkill } from '../skills/catalog.js';

export const SKILL_MODES = ['auto', 'ask', 'off'] as const;
export const SkillMode = z.enum(SKILL_MODES);
export type SkillMode = z.infer<typeof SkillMode>;

export const CopilotPolicy = z.object({
  selfApproval: z.boolean(),
  skills: z.record(z.string(), SkillMode),
});
export type CopilotPolicy = z.infer<typeof CopilotPolicy>;

/** PUT body: skills not named keep their mode; an unknown skill or a dangerous one set to `auto` → 400. */
export const PutPolicyRequest = z
  .object({
    selfApproval: z.boolean().optional(),
    skills: z.record(z.string(), SkillMode).optional(),
  })
  .superRefine((body, context) => {
    for (const [name, mode] of Object.entries(body.skills ?? {})) {
      const skill = findSkill(name);
      if (!skill) context.addIssue({ code: 'custom', path: ['skills', name], message: `unknown skill "${name}"` });
      else if (mode === 'auto' && isDangerous(skill))
        context.addIssue({ code: 'custom', path: ['skills', name], message: `${name} is dangerous and can never run without an approval` });
    }
  });
export type PutPolicyRequest = z.infer<typeof PutPolicyRequest>;

export const PolicyResponse = z.object({ data: CopilotPolicy });

/** The seeds' rule: dangerous skills ask, safe ones run at once. */
export function defaultSkillMode(skillName: string): SkillMode {
  const skill = findSkill(skillName);
  return skill && isDangerous(skill) ? 'ask' : 'auto';
}

/** Every skill with its effective mode: the stored overrides over the defaults; a dangerous skill is never `auto`. */
export function effectivePolicy(stored: { selfApproval?: boolean; skills?: Record<string, SkillMode> } | null): CopilotPolicy {
  const skills: Record<string, SkillMode> = {};
  for (const skill of SKILL_LIST) {
    const mode = stored?.skills?.[skill.name] ?? defaultSkillMode(skill.name);
    skills[skill.name] = mode === 'auto' && isDangerous(skill) ? 'ask' : mode;
  }
  return { selfApproval: stored?.selfApproval ?? true, skills };
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

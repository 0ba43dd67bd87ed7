// The modes a skill may have in the site's policy (docs/API.md, "The gate's tiers and limits"): the one place that decides
// it, for the PUT's validation, the effective policy, the gate's tier and the Studio's policy page.
import { z } from 'zod';
import { isDangerous } from '../risk.js';
import { type SkillDefinition, writes } from '../skills/define-skill.js';

/** `warn` ("warn but execute"): runs at once and tells the site's admins with a `copilot-notice` (docs/API.md, "The gate's tiers and limits"). */
export const SKILL_MODES = ['auto', 'warn', 'ask', 'off'] as const;
export const SkillMode = z.enum(SKILL_MODES);
export type SkillMode = z.infer<typeof SkillMode>;

type ModeFacts = Pick<SkillDefinition, 'requiredCapabilities' | 'dangerous'>;

/**
 * In SKILL_MODES order: a dangerous skill only asks or is off (never `auto` or `warn`); a skill that only reads is
 * never `warn` (there is nothing to undo); a safe skill that writes may have every mode.
 */
export function allowedModes(skill: ModeFacts): readonly SkillMode[] {
  if (isDangerous(skill)) return ['ask', 'off'];
  if (!writes(skill)) return ['auto', 'ask', 'off'];
  return SKILL_MODES;
}

/** The mode as the skill may have it: one it may not have is read as `ask` (dangerous) or `auto` (`warn` of a reader). */
export function permittedMode(skill: ModeFacts, mode: SkillMode): SkillMode {
  if (allowedModes(skill).includes(mode)) return mode;
  return isDangerous(skill) ? 'ask' : 'auto';
}

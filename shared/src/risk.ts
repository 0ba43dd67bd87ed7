// The risk rule of ADR-003: which skills run at once and which wait for a human.
import type { SkillDefinition } from './skills/define-skill.js';

export type RiskClassifiable = Pick<SkillDefinition, 'name' | 'requiredCapabilities' | 'dangerous'>;

/**
 * Dangerous as the skill's definition states it (`dangerous`, held to the seeds' rule by risk.test.ts). It looks at the
 * skill alone, never at who asks: a superadmin's `*` does not make a dangerous skill safe.
 */
export function isDangerous(skill: Pick<SkillDefinition, 'dangerous'>): boolean {
  return skill.dangerous;
}

// The risk rule of ADR-003: which skills run at once and which wait for a human.
import type { Capability } from './capabilities.js';

export interface RiskClassifiable {
  readonly name: string;
  readonly requiredCapabilities: readonly (Capability | string)[];
}

/**
 * Dangerous iff the skill changes the schema or its name says it deletes. It looks at the skill
 * alone, never at who asks: a superadmin's `*` does not make a dangerous skill safe.
 */
export function isDangerous(skill: RiskClassifiable): boolean {
  return skill.requiredCapabilities.includes('schema:write') || skill.name.startsWith('delete');
}

/** A skill that changes something (it needs a capability beyond reading): only these can be `warn`. */
export function writes(skill: RiskClassifiable): boolean {
  return !skill.requiredCapabilities.every((capability) => capability.endsWith(':read'));
}

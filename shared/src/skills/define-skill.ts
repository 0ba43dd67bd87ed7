// What a skill is: a typed operation the Copilot may call, with the capabilities it needs.
import type { z } from 'zod';
import type { Capability } from '../capabilities.js';

export interface SkillDefinition<Name extends string = string, Parameters extends z.ZodType = z.ZodType> {
  readonly name: Name;
  /** Written for the language model: what the skill does, when to use it, what it needs. */
  readonly description: string;
  /** The arguments' schema; the JSON Schema the model sees is generated from it. */
  readonly parameters: Parameters;
  readonly requiredCapabilities: readonly Capability[];
}

export function defineSkill<const Name extends string, Parameters extends z.ZodType>(
  skill: SkillDefinition<Name, Parameters>,
): SkillDefinition<Name, Parameters> {
  return Object.freeze({ ...skill, requiredCapabilities: Object.freeze([...skill.requiredCapabilities]) });
}

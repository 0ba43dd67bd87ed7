// The catalog as language-model tools: OpenAI function calling and Anthropic tool use.
import { z } from 'zod';
import type { SkillDefinition } from './define-skill.js';
import { SKILL_LIST } from './catalog.js';

export type JsonSchema = { [key: string]: unknown };

/** Provider-neutral tool description; each provider adapter wraps it in its own format. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export interface OpenAITool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

/**
 * zod emits `propertyNames: { type: 'string' }` for string-keyed records and `{}` for "any";
 * both are valid JSON Schema but add nothing, and stricter tool validators (OpenAI strict mode,
 * Gemini) refuse `propertyNames`. `$schema` is dropped: tool parameters are a bare schema object.
 */
function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (node === null || typeof node !== 'object') return node;
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue;
    if (key === 'propertyNames' && isPlainStringSchema(value)) continue;
    if (key === 'additionalProperties' && isEmptySchema(value)) {
      result[key] = true;
      continue;
    }
    result[key] = simplify(value);
  }
  return result;
}

function isPlainStringSchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 1 && (value as JsonSchema).type === 'string';
}

function isEmptySchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

/** The JSON Schema (draft-07 subset, inlined, no `$ref`) of what a caller may pass to the skill. */
export function skillParametersJsonSchema(skill: SkillDefinition): JsonSchema {
  const schema = z.toJSONSchema(skill.parameters, { target: 'draft-7', io: 'input', unrepresentable: 'any', reused: 'inline' });
  return simplify(schema) as JsonSchema;
}

export function toToolSpec(skill: SkillDefinition): ToolSpec {
  return { name: skill.name, description: skill.description, parameters: skillParametersJsonSchema(skill) };
}

export function getSkillToolSpecs(skills: readonly SkillDefinition[] = SKILL_LIST): ToolSpec[] {
  return skills.map(toToolSpec);
}

export function getAISkillsAsTools(skills: readonly SkillDefinition[] = SKILL_LIST): OpenAITool[] {
  return getSkillToolSpecs(skills).map(({ name, description, parameters }) => ({
    type: 'function',
    function: { name, description, parameters },
  }));
}

export function getAISkillsAsAnthropicTools(skills: readonly SkillDefinition[] = SKILL_LIST): AnthropicTool[] {
  return getSkillToolSpecs(skills).map(({ name, description, parameters }) => ({ name, description, input_schema: parameters }));
}

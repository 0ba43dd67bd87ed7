// The inputs of an approval's arguments form, read from its skill's JSON Schema (the one the model is given as the
// tool's parameters: shared/src/skills/tools.ts): one labelled input per property, in the schema's order (text,
// number, yes/no, a choice, a group for a nested object; JSON only for lists and free-form objects).
import { findSkill, type JsonSchema, skillParametersJsonSchema } from '@lumibase/shared';

export type ArgumentInputKind = 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'json' | 'group';

export interface ArgumentInput {
  kind: ArgumentInputKind;
  /** The argument's path, dot-joined as the server's error details name it: `field.name`. */
  path: string;
  label: string;
  /** The schema's description, when it says more than the label. */
  hint?: string;
  /** Absent from the arguments when left empty. */
  optional: boolean;
  maxLength?: number;
  choices?: readonly string[];
  children?: ArgumentInput[];
}

/** The inputs of a skill's arguments, in the schema's order; [] for an unknown skill. */
export function argumentInputs(skillName: string): ArgumentInput[] {
  const skill = findSkill(skillName);
  return skill ? schemaInputs(skillParametersJsonSchema(skill)) : [];
}

/** The inputs of an object schema's properties; `prefix` is the object's own path. */
export function schemaInputs(schema: JsonSchema, prefix = ''): ArgumentInput[] {
  const properties = isSchema(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.entries(properties).map(([key, property]) => {
    // A property with a default is filled in when left out, so the form asks for it like a required one.
    const optional = !required.includes(key) && !('default' in property);
    return inputFor(key, property, prefix ? `${prefix}.${key}` : key, optional);
  });
}

function inputFor(key: string, property: JsonSchema, path: string, optional: boolean): ArgumentInput {
  const inner = withoutNull(property);
  const base = { path, label: labelFor(key), optional, ...hintOf(property, inner) };
  if (Array.isArray(inner.enum)) return { ...base, kind: 'choice', choices: inner.enum.map(String) };
  switch (inner.type) {
    case 'string':
      return { ...base, kind: 'text', ...(typeof inner.maxLength === 'number' ? { maxLength: inner.maxLength } : {}) };
    case 'integer':
      return { ...base, kind: 'integer' };
    case 'number':
      return { ...base, kind: 'number' };
    case 'boolean':
      return { ...base, kind: 'boolean' };
    case 'object':
      // An object of named properties is a group; a free-form one (a record) is typed as JSON.
      return isSchema(inner.properties) ? { ...base, kind: 'group', children: schemaInputs(inner, path) } : { ...base, kind: 'json' };
    default:
      return { ...base, kind: 'json' };
  }
}

/** A nullable property (`anyOf: [schema, { type: 'null' }]`) as the schema it is when given. */
function withoutNull(property: JsonSchema): JsonSchema {
  if (!Array.isArray(property.anyOf)) return property;
  const given = (property.anyOf as JsonSchema[]).filter((member) => member.type !== 'null');
  return given.length === 1 && given[0] ? given[0] : property;
}

function hintOf(outer: JsonSchema, inner: JsonSchema): { hint?: string } {
  const hint = typeof outer.description === 'string' ? outer.description : inner.description;
  // A description that spells out JSON ({ name, type, … }) is for the model, not for a person filling in a form.
  return typeof hint === 'string' && hint && !/[{}[\]]/.test(hint) ? { hint } : {};
}

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

const WORDS: Record<string, string> = { id: 'ID', userId: 'User ID' };

/** `collection` → "Collection", `userId` → "User ID", `maxLength` → "Max length". */
export function labelFor(key: string): string {
  if (WORDS[key]) return WORDS[key];
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Every input, groups' children included, in order. */
export function leafInputs(inputs: ArgumentInput[]): ArgumentInput[] {
  return inputs.flatMap((input) => (input.kind === 'group' ? leafInputs(input.children ?? []) : [input]));
}

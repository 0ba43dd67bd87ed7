// Parses a tool call's arguments with the skill's schema; failures come back as contract details.
import { detailsFromZodIssues, type ErrorDetail } from '../errors.js';
import { MAX_JSON_DEPTH } from '../json-depth.js';
import type { SkillDefinition } from './define-skill.js';

export type ParsedArguments = { success: true; arguments: Record<string, unknown> } | { success: false; details: ErrorDetail[] };

/**
 * The deepest arguments any skill can need: a field's options (at most MAX_JSON_DEPTH levels) sit
 * three levels down, in `{ fields: [{ options }] }`. The walk below stops there, so a model's output nested
 * thousands of levels deep is refused instead of overflowing the stack.
 */
const MAX_ARGUMENTS_DEPTH = MAX_JSON_DEPTH + 3;

/**
 * Arguments must be plain JSON: they are stored, shown to reviewers and sent back to the model.
 * Two more refusals: zod's records drop a `__proto__` key without a word, and an own `__proto__`
 * key handed to `Object.assign` (a merge of item data, say) replaces the target's prototype.
 * Refusing it keeps stored arguments equal to the given ones and keeps it from the executors.
 */
function findNonJson(value: unknown, path: string[], found: ErrorDetail[], seen: Set<object>): void {
  if (value === null || value === undefined || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) found.push({ path: joinPath(path), message: 'must be a finite number' });
    return;
  }
  if (typeof value !== 'object') {
    found.push({ path: joinPath(path), message: `must be JSON, not a ${typeof value}` });
    return;
  }
  const prototype = Object.getPrototypeOf(value);
  const plain = Array.isArray(value) || prototype === Object.prototype || prototype === null;
  if (!plain || seen.has(value)) {
    found.push({ path: joinPath(path), message: plain ? 'must not refer to itself' : 'must be JSON' });
    return;
  }
  if (path.length >= MAX_ARGUMENTS_DEPTH) {
    found.push({ path: joinPath(path), message: `must not nest deeper than ${MAX_ARGUMENTS_DEPTH} levels in the arguments` });
    return;
  }
  seen.add(value);
  for (const key of Object.keys(value)) {
    if (key === '__proto__') found.push({ path: joinPath([...path, key]), message: 'the key __proto__ is not allowed' });
    else findNonJson((value as Record<string, unknown>)[key], [...path, key], found, seen);
  }
  seen.delete(value);
}

function joinPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map(String).join('.');
}

export function parseSkillArguments(skill: SkillDefinition, given: unknown): ParsedArguments {
  const nonJson: ErrorDetail[] = [];
  findNonJson(given, [], nonJson, new Set());
  if (nonJson.length > 0) return { success: false, details: nonJson };
  const result = skill.parameters.safeParse(given);
  if (!result.success) return { success: false, details: detailsFromZodIssues(result.error.issues, { unknownKey: 'unknown argument' }) };
  return { success: true, arguments: result.data as Record<string, unknown> };
}

// Checks an item's `data` against its collection's fields: the CMS's one validation rule, for humans and skills alike.
import {
  characterCount,
  type ErrorDetail,
  exceedsJsonDepth,
  type Field,
  formatLimit,
  holdsNonFiniteNumber,
  JSON_DEPTH_MESSAGE,
  maxLengthOf,
  NOT_FINITE_MESSAGE,
  tooLongMessage,
  ValidationError,
} from '@lumibase/shared';
import { z } from 'zod';

export interface ItemChanges {
  /** Values to store, by field name. */
  set: Record<string, unknown>;
  /** Fields whose value a PATCH removes (it sent null for an optional field). */
  unset: string[];
}

const isoDatetime = z.iso.datetime({ offset: true });
const INTEGER_RANGE_MESSAGE = `Expected an integer from -${formatLimit(Number.MAX_SAFE_INTEGER)} to ${formatLimit(Number.MAX_SAFE_INTEGER)}`;

/** Why `value` does not fit `field`, or undefined when it does. */
function typeProblem(field: Field, value: unknown): string | undefined {
  switch (field.type) {
    case 'string':
    case 'text': {
      if (typeof value !== 'string') return 'Expected a string';
      const limit = maxLengthOf(field) ?? Number.POSITIVE_INFINITY;
      // Counting stops being cheap only past the limit in UTF-16 units, which bounds the characters from above.
      if (value.length <= limit) return undefined;
      const length = characterCount(value);
      return length > limit ? tooLongMessage(limit, length) : undefined;
    }
    case 'number':
      if (typeof value !== 'number') return 'Expected a number';
      return Number.isFinite(value) ? undefined : NOT_FINITE_MESSAGE;
    case 'integer':
      if (typeof value !== 'number' || (Number.isFinite(value) && !Number.isInteger(value))) return 'Expected an integer';
      return Number.isSafeInteger(value) ? undefined : INTEGER_RANGE_MESSAGE;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'Expected a boolean';
    case 'datetime':
      return typeof value === 'string' && isoDatetime.safeParse(value).success && !Number.isNaN(Date.parse(value))
        ? undefined
        : 'Expected an ISO-8601 date-time with a time zone, such as 2024-05-01T09:30:00Z';
    case 'json':
      if (exceedsJsonDepth(value)) return JSON_DEPTH_MESSAGE;
      return holdsNonFiniteNumber(value) ? 'Numbers inside must be finite (1e400 and the like are too large)' : undefined;
    case 'enum': {
      const values = Array.isArray(field.options?.values) ? (field.options.values as unknown[]) : [];
      return typeof value === 'string' && values.includes(value) ? undefined : `Expected one of: ${values.map(String).join(', ')}`;
    }
  }
}

/**
 * Validates `data` for a create (every required field present) or a patch (only the given fields,
 * merged into the stored item). A null value means "no value": refused for a required field,
 * dropped on create and removed from the item on patch. Throws ValidationError with one detail per
 * offending field, at `data.<field>`.
 */
export function validateItemData(fields: readonly Field[], data: Record<string, unknown>, mode: 'create' | 'patch'): ItemChanges {
  const byName = new Map(fields.map((field) => [field.name, field]));
  const details: ErrorDetail[] = [];
  const changes: ItemChanges = { set: {}, unset: [] };

  for (const [name, value] of Object.entries(data)) {
    const field = byName.get(name);
    if (!field) {
      details.push({ path: `data.${name}`, message: 'Unknown field' });
      continue;
    }
    if (value === null || value === undefined) {
      if (field.required) details.push({ path: `data.${name}`, message: 'Required' });
      else if (mode === 'patch') changes.unset.push(name);
      continue;
    }
    const problem = typeProblem(field, value);
    if (problem) details.push({ path: `data.${name}`, message: problem });
    else changes.set[name] = value;
  }

  if (mode === 'create') {
    for (const field of fields) {
      const value = Object.hasOwn(data, field.name) ? data[field.name] : undefined;
      if (field.required && (value === undefined || value === null) && !details.some((detail) => detail.path === `data.${field.name}`)) {
        details.push({ path: `data.${field.name}`, message: 'Required' });
      }
    }
  }

  if (details.length > 0) throw new ValidationError({ message: 'Item data does not match the collection fields', details });
  return changes;
}

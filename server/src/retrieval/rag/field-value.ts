// Whether a value fits a field (the CMS's one rule, validateItemData), and the JSON Schema a model answers it by.
import { DomainError, type Field, type JsonSchema } from '@lumibase/shared';
import { validateItemData } from '../../services/validate-item-data.js';

/** Why `value` cannot be stored in `field`, or undefined when it can. Null and undefined are no value: they never fit. */
export function valueProblem(field: Field, value: unknown): string | undefined {
  if (value === null || value === undefined) return 'No value';
  try {
    validateItemData([field], { [field.name]: value }, 'patch');
    return undefined;
  } catch (error) {
    if (error instanceof DomainError) return error.details?.[0]?.message ?? error.message;
    throw error;
  }
}

/** The JSON Schema of a value of `field`, for the model's answer tool. */
export function fieldValueSchema(field: Field): JsonSchema {
  switch (field.type) {
    case 'string':
      return { type: 'string', description: 'A short single-line text' };
    case 'text':
      return { type: 'string', description: 'Text, possibly several paragraphs' };
    case 'number':
      return { type: 'number' };
    case 'integer':
      return { type: 'integer' };
    case 'boolean':
      return { type: 'boolean' };
    case 'datetime':
      return { type: 'string', format: 'date-time', description: 'ISO 8601 with a time zone, such as 2024-05-01T09:30:00Z' };
    case 'enum':
      return { type: 'string', enum: Array.isArray(field.options?.values) ? field.options.values : [] };
    case 'json':
      return { description: 'Any JSON value (an object, a list, a string, a number or a boolean)' };
  }
}

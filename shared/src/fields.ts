// Collection and field definitions: the schema admins (and the Copilot) edit.
import { z } from 'zod';
import { exceedsJsonDepth, JSON_DEPTH_MESSAGE } from './json-depth.js';

export const NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
export const Name = z.string().regex(NAME_PATTERN, 'must match ^[a-z][a-z0-9_]{0,63}$');

export const FIELD_TYPES = ['string', 'text', 'number', 'integer', 'boolean', 'datetime', 'json', 'enum'] as const;
export const FieldType = z.enum(FIELD_TYPES);
export type FieldType = z.infer<typeof FieldType>;

/** Type-specific options: a JSON object, nested at most MAX_JSON_DEPTH levels. */
export const FieldOptions = z
  .record(z.string(), z.unknown(), { error: 'must be a JSON object' })
  .refine((options) => !exceedsJsonDepth(options), { message: JSON_DEPTH_MESSAGE });

const FieldBase = z.object({
  name: Name,
  type: FieldType,
  required: z.boolean().default(false),
  options: FieldOptions.optional(),
});

function checkEnumValues(field: { type?: FieldType; options?: Record<string, unknown> }, context: z.RefinementCtx): void {
  if (field.type !== 'enum') return;
  const values = field.options?.values;
  const valid = Array.isArray(values) && values.length > 0 && values.every((value) => typeof value === 'string');
  if (!valid) {
    context.addIssue({
      code: 'custom',
      path: ['options', 'values'],
      message: 'enum fields need options.values: a non-empty array of strings',
    });
  }
}

export const Field = FieldBase.superRefine(checkEnumValues);
export type Field = z.infer<typeof Field>;
export type FieldInput = z.input<typeof Field>;

/**
 * A PATCH of a field: any subset, with no defaults (an absent `required` must not reset it to false);
 * the merged result is validated again with `Field`.
 */
export const FieldChanges = z
  .object({
    name: Name,
    type: FieldType,
    required: z.boolean(),
    options: FieldOptions,
  })
  .partial()
  .strict();
export type FieldChanges = z.infer<typeof FieldChanges>;

export const Collection = z.object({
  name: Name,
  label: z.string().trim().min(1).max(200).optional(),
  fields: z.array(Field).default([]),
});
export type Collection = z.infer<typeof Collection>;

// Argument pieces several skills share. No transforms besides Field's `required` default, so a
// parsed argument object is the given one (plus that default) and approvals store what was asked.
import { z } from 'zod';
import { FIELD_TYPES, Field, FieldOptions, FieldType, Name } from '../fields.js';

export const CollectionName = Name.describe('Collection name: lowercase letters, digits and _, starting with a letter');
export const FieldName = Name.describe('Field name: lowercase letters, digits and _, starting with a letter');

/** A JSON object (not an array, not null): item data. */
export const JsonObject = z.record(z.string(), z.unknown(), { error: 'must be a JSON object' });

export const RecordId = z.string().min(1).max(200).regex(/^\S+$/, 'must not contain whitespace');

/** The most characters a free-text skill argument holds (a field's description, an assist instruction). */
export const LONG_TEXT_MAX = 2000;

/** Free text for the model to fill in; not trimmed (a transform would make stored ≠ given). */
export const LongText = z.string().max(LONG_TEXT_MAX).regex(/\S/, 'must not be blank');

/** A field definition; unknown keys are refused rather than dropped, so nothing asked is lost. */
export const StrictField = Field.strict().describe(
  'A field: { name, type, required?, options? }; type is one of ' + FIELD_TYPES.join(', ') + '; enum fields need options.values',
);

const FieldOptionsArgument = FieldOptions.describe('Type-specific options; enum fields need { values: string[] } (non-empty)');

/**
 * A field change set for `updateField`. Unlike `FieldChanges` in fields.ts it has no default, so
 * a change that does not mention `required` leaves it as it is.
 */
export const FieldPatch = z
  .strictObject({
    name: FieldName.optional().describe('New field name'),
    type: FieldType.optional(),
    required: z.boolean().optional(),
    options: FieldOptionsArgument.optional(),
  })
  .refine((changes) => Object.keys(changes).length > 0, { message: 'give at least one change' });

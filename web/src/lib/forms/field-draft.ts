// The add/edit field form: what its inputs hold, and the Field or the changes it sends.
import { canonicalJson, type Field, type FieldChanges, type FieldType } from '@lumibase/shared';

export interface FieldDraft {
  name: string;
  type: FieldType;
  required: boolean;
  /** Enum options, one per line. */
  enumValues: string;
}

export function draftFromField(field?: Field): FieldDraft {
  const values = field?.options?.values;
  return {
    name: field?.name ?? '',
    type: field?.type ?? 'string',
    required: field?.required ?? false,
    enumValues: Array.isArray(values) ? values.join('\n') : '',
  };
}

export function parseEnumValues(text: string): string[] {
  const values = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return [...new Set(values)];
}

/** The Field to POST; other options of an edited field are kept. */
export function fieldFromDraft(draft: FieldDraft, original?: Field): Field {
  const { values: _values, ...otherOptions } = original?.options ?? {};
  const options = draft.type === 'enum' ? { ...otherOptions, values: parseEnumValues(draft.enumValues) } : otherOptions;
  return {
    name: draft.name.trim(),
    type: draft.type,
    required: draft.required,
    ...(Object.keys(options).length > 0 ? { options } : {}),
  };
}

/** Only what changed, for PATCH /collections/:name/fields/:field. */
export function fieldChanges(original: Field, draft: FieldDraft): FieldChanges {
  const next = fieldFromDraft(draft, original);
  const changes: FieldChanges = {};
  if (next.name !== original.name) changes.name = next.name;
  if (next.type !== original.type) changes.type = next.type;
  if (next.required !== (original.required ?? false)) changes.required = next.required;
  if (canonicalJson(next.options ?? {}) !== canonicalJson(original.options ?? {})) changes.options = next.options ?? {};
  return changes;
}

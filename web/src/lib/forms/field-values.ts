// Item forms generated from field types: which input each type gets, and how values travel between item data and inputs.
import { type Field, type FieldType, maxLengthOf } from '@lumibase/shared';
import { formatNumberForInput, parseLocaleNumber, userLocale } from './locale-number.js';

export type InputKind = 'text' | 'textarea' | 'checkbox' | 'number' | 'integer' | 'datetime' | 'select' | 'json';

const INPUT_KINDS: Record<FieldType, InputKind> = {
  string: 'text',
  text: 'textarea',
  number: 'number',
  integer: 'integer',
  boolean: 'checkbox',
  datetime: 'datetime',
  json: 'json',
  enum: 'select',
};

/** What an input holds: text for every kind but the checkbox. */
export type FormValue = string | boolean;
export type FormValues = Record<string, FormValue>;

export type Coerced = { kind: 'value'; value: unknown } | { kind: 'empty' } | { kind: 'invalid'; message: string };

export function inputKindFor(type: FieldType): InputKind {
  return INPUT_KINDS[type];
}

export function enumValues(field: Field): string[] {
  const values = field.options?.values;
  return Array.isArray(values) ? values.filter((value): value is string => typeof value === 'string') : [];
}

/** The most characters a string or text input takes (docs/API.md, Content); undefined for other types. */
export function maxLengthFor(field: Field): number | undefined {
  return maxLengthOf(field);
}

/** An item value → what its input shows. Values of the wrong shape show as text rather than being lost. */
export function toFormValue(field: Field, value: unknown, locale: string = userLocale()): FormValue {
  const kind = inputKindFor(field.type);
  if (kind === 'checkbox') return value === true;
  if (value === undefined || value === null) return '';
  switch (kind) {
    case 'datetime':
      return typeof value === 'string' ? isoToLocalInput(value) : '';
    case 'json':
      return JSON.stringify(value, null, 2);
    case 'number':
    case 'integer':
      return typeof value === 'number' ? formatNumberForInput(value, locale) : String(value);
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

/** What an input holds → the value sent to the API, or why it cannot be sent. Numbers are read the way `locale` writes them. */
export function fromFormValue(field: Field, formValue: FormValue, locale: string = userLocale()): Coerced {
  const kind = inputKindFor(field.type);
  if (kind === 'checkbox') return { kind: 'value', value: formValue === true };
  const text = typeof formValue === 'string' ? formValue : '';
  if (text.trim() === '') return { kind: 'empty' };
  switch (kind) {
    case 'number': {
      const parsed = parseLocaleNumber(text, locale);
      return parsed.ok ? { kind: 'value', value: parsed.value } : { kind: 'invalid', message: parsed.message };
    }
    case 'integer': {
      const parsed = parseLocaleNumber(text, locale);
      if (!parsed.ok) return { kind: 'invalid', message: parsed.message };
      if (!Number.isInteger(parsed.value)) return { kind: 'invalid', message: 'Enter a whole number' };
      return Number.isSafeInteger(parsed.value)
        ? { kind: 'value', value: parsed.value }
        : { kind: 'invalid', message: 'This whole number is too large: at most 9,007,199,254,740,991 either side of zero' };
    }
    case 'datetime': {
      const iso = localInputToIso(text);
      return iso ? { kind: 'value', value: iso } : { kind: 'invalid', message: 'Enter a date and time' };
    }
    case 'json': {
      const parsed = parseJson(text);
      return parsed.ok ? { kind: 'value', value: parsed.value } : { kind: 'invalid', message: parsed.message };
    }
    case 'select':
      return enumValues(field).includes(text) ? { kind: 'value', value: text } : { kind: 'invalid', message: 'Choose one of the options' };
    default:
      return { kind: 'value', value: text };
  }
}

export function initialFormValues(fields: readonly Field[], data: Record<string, unknown> = {}, locale: string = userLocale()): FormValues {
  return Object.fromEntries(fields.map((field) => [field.name, toFormValue(field, data[field.name], locale)]));
}

export interface BuiltItemData {
  data: Record<string, unknown>;
  /** Inputs whose text cannot become a value of their type, by field name. */
  errors: Record<string, string>;
}

/**
 * The `data` to send. Creating: every filled input (the API reports missing required ones).
 * Editing (`initial` given): only the inputs the user changed, so a PATCH never overwrites
 * someone else's edit of another field; a cleared input sends null.
 */
export function buildItemData(
  fields: readonly Field[],
  values: FormValues,
  initial?: FormValues,
  locale: string = userLocale(),
): BuiltItemData {
  const data: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = values[field.name] ?? toFormValue(field, undefined, locale);
    if (initial && value === initial[field.name]) continue;
    const coerced = fromFormValue(field, value, locale);
    if (coerced.kind === 'invalid') errors[field.name] = coerced.message;
    else if (coerced.kind === 'value') data[field.name] = coerced.value;
    else if (initial) data[field.name] = null;
  }
  return { data, errors };
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: `Invalid JSON: ${(error as Error).message}` };
  }
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** An ISO instant → the local `YYYY-MM-DDTHH:mm[:ss]` a datetime-local input takes. */
export function isoToLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const day = `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const seconds = date.getSeconds() ? `:${pad(date.getSeconds())}` : '';
  return `${day}T${pad(date.getHours())}:${pad(date.getMinutes())}${seconds}`;
}

/** A datetime-local value (local time) → an ISO-8601 string in UTC. */
export function localInputToIso(local: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(local)) return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

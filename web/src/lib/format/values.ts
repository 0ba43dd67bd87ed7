// How values read in tables and headers: dates in the reader's locale, item values by field type, short ids.
import type { Field } from '@lumibase/shared';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDateTime(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

const CELL_MAX = 80;

/** One line of text for an item's value in a table cell. */
export function formatCell(field: Field, value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  switch (field.type) {
    case 'boolean':
      return value === true ? 'Yes' : value === false ? 'No' : String(value);
    case 'datetime':
      return typeof value === 'string' ? formatDateTime(value) : String(value);
    case 'number':
    case 'integer':
      return typeof value === 'number' ? formatNumber(value) : truncate(String(value));
    case 'json':
      return truncate(JSON.stringify(value));
    default:
      return truncate(typeof value === 'string' ? value : JSON.stringify(value));
  }
}

const number = new Intl.NumberFormat(undefined, { maximumFractionDigits: 6 });

/** A number in the reader's locale, without binary noise: 349.65000000000003 → "349.65" (en), "349,65" (de). */
export function formatNumber(value: number): string {
  return Number.isFinite(value) ? number.format(value) : String(value);
}

export function truncate(text: string, max = CELL_MAX): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function shortId(id: string): string {
  return id.length > 8 ? id.slice(-8) : id;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

export const FIELD_TYPE_LABELS: Record<Field['type'], string> = {
  string: 'Short text',
  text: 'Long text',
  number: 'Number',
  integer: 'Integer',
  boolean: 'Boolean',
  datetime: 'Date & time',
  json: 'JSON',
  enum: 'Enum',
};

const MINUTE = 60_000;

/** "just now", "5 min ago", "2 h ago", then the date: for when something was asked or decided. */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const elapsed = now - at;
  if (elapsed < MINUTE) return 'just now';
  if (elapsed < 60 * MINUTE) return `${Math.floor(elapsed / MINUTE)} min ago`;
  if (elapsed < 24 * 60 * MINUTE) return `${Math.floor(elapsed / (60 * MINUTE))} h ago`;
  return formatDateTime(iso);
}

/** A field's name in words for forms and tables: its `label` when the server sends one, else "is_public" → "Is public". */
export function fieldLabel(field: Pick<Field, 'name'> & { label?: unknown }): string {
  if (typeof field.label === 'string' && field.label.trim()) return field.label.trim();
  const words = field.name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[_\s-]+/)
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : field.name;
}

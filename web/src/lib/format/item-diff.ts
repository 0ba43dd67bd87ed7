// What separates an item's current data from one of its revisions, field by field: what restoring the revision changes.
import { canonicalJson } from '@lumibase/shared';

export type FieldChangeKind = 'added' | 'removed' | 'changed';

export interface FieldChange {
  field: string;
  /** From the current data to the revision's: `added` has a value only in the revision, `removed` only now. */
  kind: FieldChangeKind;
  current?: unknown;
  revision?: unknown;
}

const present = (data: Record<string, unknown>, field: string) =>
  Object.hasOwn(data, field) && data[field] !== undefined && data[field] !== null;

/** The fields that differ, in the order of `order` (the collection's fields) and then by name; equal fields are left out. */
export function diffItemData(
  current: Record<string, unknown>,
  revision: Record<string, unknown>,
  order: readonly string[] = [],
): FieldChange[] {
  const names = new Set([...Object.keys(current), ...Object.keys(revision)]);
  const rank = (name: string) => {
    const index = order.indexOf(name);
    return index === -1 ? order.length : index;
  };
  const sorted = [...names].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const changes: FieldChange[] = [];
  for (const field of sorted) {
    const now = present(current, field);
    const then = present(revision, field);
    if (now && then) {
      // Canonical JSON: two values equal up to key order compare equal.
      if (canonicalJson(current[field]) !== canonicalJson(revision[field]))
        changes.push({ field, kind: 'changed', current: current[field], revision: revision[field] });
    } else if (then) {
      changes.push({ field, kind: 'added', revision: revision[field] });
    } else if (now) {
      changes.push({ field, kind: 'removed', current: current[field] });
    }
  }
  return changes;
}

/** One line for a value in the diff: strings as they are, anything else as JSON. */
export function formatDiffValue(value: unknown): string {
  if (value === undefined || value === null) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

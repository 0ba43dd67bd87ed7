// Which of a collection's fields the items table shows: the first few and every required one by default, else the
// reader's own choice, remembered per site and collection on this device.
import type { Field } from '@lumibase/shared';

export const DEFAULT_COLUMN_COUNT = 5;

export function defaultColumns(fields: readonly Field[]): string[] {
  return fields.filter((field, index) => index < DEFAULT_COLUMN_COUNT || field.required).map((field) => field.name);
}

export function columnsKey(siteId: string, collection: string): string {
  return `lumibase.columns.${siteId}.${collection}`;
}

/** The saved choice, kept to fields that still exist (in the collection's order); the default when none is saved. */
export function loadColumns(storage: Pick<Storage, 'getItem'> | undefined, key: string, fields: readonly Field[]): string[] {
  let saved: unknown;
  try {
    saved = JSON.parse(storage?.getItem(key) ?? 'null');
  } catch {
    saved = null;
  }
  if (!Array.isArray(saved)) return defaultColumns(fields);
  const chosen = new Set(saved.filter((name): name is string => typeof name === 'string'));
  return fields.filter((field) => chosen.has(field.name)).map((field) => field.name);
}

export function saveColumns(storage: Pick<Storage, 'setItem'> | undefined, key: string, columns: readonly string[]): void {
  try {
    storage?.setItem(key, JSON.stringify(columns));
  } catch {
    // Storage full or blocked (private mode): the choice lasts for this page only.
  }
}

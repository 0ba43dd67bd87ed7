// What an item is called where a person reads about it (the trash): its title-like value, else its first text value.
import type { Field } from '@lumibase/shared';

export function itemTitle(fields: readonly Field[], data: Record<string, unknown>): string | undefined {
  const titled = titleOf(data);
  if (titled) return titled;
  for (const field of fields) {
    const value = data[field.name];
    if ((field.type === 'string' || field.type === 'text') && typeof value === 'string' && value.trim() !== '') return value.slice(0, 200);
  }
  return undefined;
}

export function titleOf(data: Record<string, unknown>): string | undefined {
  for (const key of ['title', 'name', 'label', 'slug']) {
    const value = data[key];
    if (typeof value === 'string' && value.length > 0) return value.slice(0, 200);
  }
  return undefined;
}

// How free-form JSON (item values, field options) is stored: objects and arrays as JSON text.
//
// A JSON value may hold keys such as `$where`, `a.b` or `__proto__`. MongoDB's rules for such keys
// differ by version and by operator ($set refuses some that insert accepts), so free-form objects
// never reach the database as documents: they are stored as their JSON text, wrapped so a string
// value can never be mistaken for one. Primitives are stored as themselves.

const WRAPPER_KEY = 'json';

export type Stored = string | number | boolean | null | { [WRAPPER_KEY]: string };

export function encodeJsonValue(value: unknown): Stored {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value === undefined) return null;
  return { [WRAPPER_KEY]: JSON.stringify(value) };
}

export function decodeJsonValue(stored: unknown): unknown {
  if (typeof stored === 'object' && stored !== null && typeof (stored as Record<string, unknown>)[WRAPPER_KEY] === 'string') {
    return JSON.parse((stored as Record<string, string>)[WRAPPER_KEY]!);
  }
  return stored;
}

/** Encodes each value of a record whose keys are already safe (field names). */
export function encodeRecord(record: Record<string, unknown>): Record<string, Stored> {
  const encoded: Record<string, Stored> = {};
  for (const [key, value] of Object.entries(record)) encoded[key] = encodeJsonValue(value);
  return encoded;
}

export function decodeRecord(stored: unknown): Record<string, unknown> {
  const decoded: Record<string, unknown> = {};
  if (typeof stored !== 'object' || stored === null) return decoded;
  for (const [key, value] of Object.entries(stored)) decoded[key] = decodeJsonValue(value);
  return decoded;
}

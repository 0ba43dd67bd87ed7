// How free-form JSON is stored: as exact JSON text. The Copilot's values (skill arguments, results,
// details) are stored as the text itself; the CMS's (item values, field options) wrap objects and
// arrays as `{ json: text }` so a string value can never be mistaken for one, and keep primitives as
// themselves (they are queried and sorted on).
//
// Why text and not a BSON sub-document: MongoDB refuses or mangles some keys a JSON object may
// have (`$`-prefixed ones, dotted ones in updates, NUL bytes — BSON keys are C strings), mongoose
// drops empty objects (`minimize`), and BSON re-encodes lone UTF-16 surrogates as U+FFFD. A JSON
// string has none of these problems; we never query inside these values, so nothing is lost.
// `JSON.stringify` alone turns -0 into 0 (and `JSON.parse('-0')` does give -0), so numbers are
// written here, and an own `__proto__` key survives because `JSON.parse` defines it as data.

export class JsonEncodingError extends Error {
  constructor(
    readonly path: string,
    what: string,
  ) {
    super(`not JSON at ${path || '(root)'}: ${what}`);
    this.name = 'JsonEncodingError';
  }
}

function encodeValue(value: unknown, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new JsonEncodingError(path, String(value));
      return Object.is(value, -0) ? '-0' : JSON.stringify(value);
    case 'object':
      return Array.isArray(value) ? encodeArray(value, path) : encodeObject(value as Record<string, unknown>, path);
    default:
      throw new JsonEncodingError(path, typeof value);
  }
}

function encodeArray(values: readonly unknown[], path: string): string {
  const parts: string[] = [];
  for (let index = 0; index < values.length; index += 1) {
    // Like JSON.stringify: a hole or an undefined element is written as null.
    const element = values[index];
    parts.push(element === undefined ? 'null' : encodeValue(element, `${path}.${index}`));
  }
  return `[${parts.join(',')}]`;
}

function encodeObject(object: Record<string, unknown>, path: string): string {
  if (object instanceof Date) return JSON.stringify(object.toJSON());
  const parts: string[] = [];
  for (const key of Object.keys(object)) {
    const member = object[key];
    // Like JSON.stringify: undefined members are left out.
    if (member === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${encodeValue(member, path ? `${path}.${key}` : key)}`);
  }
  return `{${parts.join(',')}}`;
}

/** JSON text from which `decodeJson` gives back a deep-equal value (-0 and `__proto__` keys included). */
export function encodeJson(value: unknown): string {
  return encodeValue(value, '');
}

export function decodeJson(text: string): unknown {
  return JSON.parse(text);
}

const WRAPPER_KEY = 'json';

export type Stored = string | number | boolean | null | { [WRAPPER_KEY]: string };

export function encodeJsonValue(value: unknown): Stored {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value === undefined) return null;
  return { [WRAPPER_KEY]: encodeJson(value) };
}

export function decodeJsonValue(stored: unknown): unknown {
  if (typeof stored === 'object' && stored !== null && typeof (stored as Record<string, unknown>)[WRAPPER_KEY] === 'string') {
    return decodeJson((stored as Record<string, string>)[WRAPPER_KEY]!);
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

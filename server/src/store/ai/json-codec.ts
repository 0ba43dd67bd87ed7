// Exact JSON text for the free-form values the Copilot stores (skill arguments, results, details).
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

// Builds E11000 errors with the message text, keyPattern and keyValue MongoDB reports.
import { type Document, ObjectId } from 'bson';
import { CommandError } from './command-error.js';
import type { IndexSpec } from './index-spec.js';

export function duplicateKeyError(namespace: string, spec: IndexSpec, values: unknown[]): CommandError {
  const keyValue: Document = {};
  Object.keys(spec.key).forEach((field, position) => {
    keyValue[field] = values[position] ?? null;
  });
  const message = `E11000 duplicate key error collection: ${namespace} index: ${spec.name} dup key: ${formatValue(keyValue)}`;
  return new CommandError('DuplicateKey', message, { keyPattern: spec.key, keyValue });
}

// The shell-like rendering mongod uses in the message, e.g. { email: "a@b.c" }.
function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof ObjectId) return `ObjectId('${value.toHexString()}')`;
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (Array.isArray(value)) return `[ ${value.map(formatValue).join(', ')} ]`;
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const fields = Object.entries(value).map(([key, inner]) => `${key}: ${formatValue(inner)}`);
    return fields.length ? `{ ${fields.join(', ')} }` : '{}';
  }
  return String(value);
}

// Canonical string keys for BSON values: values MongoDB calls equal share one Map slot.
import { Decimal128, Long, ObjectId, serialize } from 'bson';

/** null and missing index the same in MongoDB, so both map to one key. */
export const NULL_KEY = 'z';

export function valueKey(value: unknown): string {
  if (value === undefined || value === null) return NULL_KEY;
  switch (typeof value) {
    case 'string':
      return `s${value}`;
    case 'number':
      return Object.is(value, -0) ? 'n0' : `n${value}`;
    case 'boolean':
      return value ? 'bt' : 'bf';
    case 'bigint':
      return `n${value}`;
  }
  if (value instanceof ObjectId) return `o${value.toHexString()}`;
  if (value instanceof Date) return `d${value.getTime()}`;
  // A Long only survives deserialisation when it does not fit a double exactly.
  if (value instanceof Long || value instanceof Decimal128) return `n${value.toString()}`;
  // Embedded documents compare field by field in order, which is what their BSON bytes encode.
  return `x${Buffer.from(serialize({ v: value })).toString('latin1')}`;
}

// Ids cross the API as 24-hex strings; this is the one place that turns them into ObjectIds.
import { Types } from 'mongoose';

const OBJECT_ID = /^[0-9a-fA-F]{24}$/;

/**
 * The ObjectId an API id names, or null when it is malformed. Stores look ids up with this rather
 * than letting mongoose cast them, because a failed cast is an exception (a 500) where the contract
 * wants "not in this site" (a 403).
 */
export function parseObjectId(value: unknown): Types.ObjectId | null {
  return typeof value === 'string' && OBJECT_ID.test(value) ? new Types.ObjectId(value) : null;
}

/** The API's form of a stored id. */
export function toId(value: { toString(): string }): string {
  return value.toString();
}

/** Timestamps leave the store as ISO-8601 strings, the contract's date format. */
export function toIso(value: Date | string | undefined | null): string {
  return (value instanceof Date ? value : new Date(value ?? 0)).toISOString();
}

export interface Page {
  limit: number;
  offset: number;
}

export interface PageOf<T> {
  records: T[];
  total: number;
}

// Record ids on the wire are 24-hex-digit strings; anything else names no record.
import { Types } from 'mongoose';

const OBJECT_ID = /^[0-9a-f]{24}$/i;

/** The ObjectId an id string names, or undefined for a malformed one (callers treat it as absent). */
export function parseRecordId(id: unknown): Types.ObjectId | undefined {
  return typeof id === 'string' && OBJECT_ID.test(id) ? new Types.ObjectId(id) : undefined;
}

export function requireSiteId(siteId: unknown): string {
  if (typeof siteId !== 'string' || siteId.length === 0) throw new TypeError('a site-scoped store needs a siteId');
  return siteId;
}

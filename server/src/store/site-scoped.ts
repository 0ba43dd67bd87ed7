// The tenancy pattern for every store whose documents carry a `siteId` (CMS, members, and the Copilot's).
import type { Types } from 'mongoose';
import { parseObjectId } from './object-id.js';

/**
 * A store bound to one site at construction. Subclasses build every filter with `scoped()`, which
 * sets `siteId` last so no caller-supplied filter can override it, and every insert with `owned()`.
 * There is no way to reach a query method without first choosing the site.
 */
export abstract class SiteScopedStore {
  readonly siteId: string;
  protected readonly siteObjectId: Types.ObjectId;

  constructor(siteId: string) {
    const parsed = parseObjectId(siteId);
    // Tenancy resolves the site before any store is built, so a bad id here is a programming error.
    if (!parsed) throw new TypeError(`SiteScopedStore needs a site id, got ${JSON.stringify(siteId)}`);
    this.siteId = parsed.toString();
    this.siteObjectId = parsed;
  }

  /** `filter` confined to this store's site. */
  protected scoped<T extends object>(filter: T): T & { siteId: Types.ObjectId } {
    return { ...filter, siteId: this.siteObjectId };
  }

  /** A new document stamped with this store's site. */
  protected owned<T extends object>(document: T): T & { siteId: Types.ObjectId } {
    return { ...document, siteId: this.siteObjectId };
  }
}

// The site as inspect reads it: collections with their fields, items by id, pages of items with their count, members.
// Small on purpose, so a simulated site (a plan's later steps) can answer in place of the stores.
import type { Stores } from '../store/stores.js';

export interface SiteView {
  /** `plannedBy`: only in a simulated site (dry-run.ts), the plan step that creates the collection; its id is not a real one. */
  collection(name: string): Promise<{ id: string; fields: readonly { name: string }[]; plannedBy?: number } | null>;
  /** A page of a collection's items, newest first, with how many it holds in all. */
  items(
    collectionId: string,
    page: { limit: number; offset: number },
  ): Promise<{ records: readonly { id: string; data: Record<string, unknown> }[]; total: number }>;
  item(collectionId: string, id: string): Promise<{ id: string; revision: number; data: Record<string, unknown> } | null>;
  member(userId: string): Promise<{ role: string } | null>;
  user(userId: string): Promise<{ name: string } | null>;
}

/** Over the CMS stores directly: identities (collection ids) are internal and the services do not show them. */
export function storeSiteView(stores: Pick<Stores, 'forSite' | 'users'>, siteId: string): SiteView {
  const site = stores.forSite(siteId);
  return {
    collection: (name) => site.collections.findByName(name),
    items: (collectionId, page) => site.items.list(collectionId, page),
    item: (collectionId, id) => site.items.findById(collectionId, id),
    member: (userId) => site.members.get(userId),
    user: (userId) => stores.users.findById(userId),
  };
}

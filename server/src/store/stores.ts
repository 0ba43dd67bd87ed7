// Builds the accounts and CMS stores on one connection; site-scoped ones are obtained per site.
import type { Connection } from 'mongoose';
import type { OutboxRelay } from './outbox.js';
import { AccessEpochStore } from './access-epoch.store.js';
import { CollectionStore } from './collection.store.js';
import { ItemStore } from './item.store.js';
import { ItemRevisionStore, itemRevisionWork } from './item-revision.store.js';
import { MembershipStore } from './membership.store.js';
import { createModels, type Models } from './models/index.js';
import { SessionStore } from './session.store.js';
import { SiteStore } from './site.store.js';
import { TrashStore } from './trash.store.js';
import { UserMembershipStore } from './user-memberships.store.js';
import { UserStore } from './user.store.js';

/** The stores of one site: the only way to reach members, collections and items. */
export interface SiteStores {
  siteId: string;
  members: MembershipStore;
  collections: CollectionStore;
  items: ItemStore;
  revisions: ItemRevisionStore;
  trash: TrashStore;
}

export interface Stores {
  models: Models;
  /** Relays the site events that content writes owe (collections and items carry an outbox). */
  relay: OutboxRelay;
  sites: SiteStore;
  users: UserStore;
  sessions: SessionStore;
  userMemberships: UserMembershipStore;
  /** Moved by every write above that can take access away; read once per request by the access cache. */
  accessEpochs: AccessEpochStore;
  /** Cheap: stores hold no state beyond the site id, so one per request is fine. */
  forSite(siteId: string): SiteStores;
}

export async function createStores(connection: Connection, { relay }: { relay: OutboxRelay }): Promise<Stores> {
  const models = await createModels(connection);
  relay.register(models.collections);
  relay.register(models.items, itemRevisionWork(models.items, models.itemRevisions));
  const accessEpochs = new AccessEpochStore(models.accessEpochs);
  const accessChanged = () => accessEpochs.advance();
  return {
    models,
    relay,
    sites: new SiteStore(models.sites, accessChanged),
    users: new UserStore(models.users, accessChanged),
    sessions: new SessionStore(models.sessions, accessChanged),
    userMemberships: new UserMembershipStore(models.memberships, accessChanged),
    accessEpochs,
    forSite: (siteId) => ({
      siteId,
      members: new MembershipStore(models.memberships, siteId, accessChanged),
      collections: new CollectionStore(models.collections, siteId, relay),
      items: new ItemStore(models.items, siteId, relay),
      revisions: new ItemRevisionStore(models.itemRevisions, siteId),
      trash: new TrashStore(models.trash, siteId),
    }),
  };
}

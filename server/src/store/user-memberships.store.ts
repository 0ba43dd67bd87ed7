// A user's memberships across sites: the one membership query that is by user, not by site (login, /auth/me).
import type { GrantedCapability, Role } from '@lumibase/shared';
import type { MembershipModel } from './models/membership.model.js';
import type { StoredMembership } from './membership.store.js';
import { parseObjectId, toId } from './object-id.js';

export interface UserMembership {
  siteId: string;
  role: Role;
  capabilities: GrantedCapability[];
}

export class UserMembershipStore {
  constructor(
    private readonly memberships: MembershipModel,
    /** Moves the access epoch (AccessEpochStore): memberships removed are access taken away. */
    private readonly accessChanged: () => Promise<void>,
  ) {}

  async listForUser(userId: string): Promise<UserMembership[]> {
    const objectId = parseObjectId(userId);
    if (!objectId) return [];
    const documents = await this.memberships.find({ userId: objectId }).lean<StoredMembership[]>();
    return documents.map((document) => ({
      siteId: toId(document.siteId),
      role: document.role,
      capabilities: [...(document.capabilities ?? [])],
    }));
  }

  /** Removes every membership of `userId`; answers the sites they were in. */
  async removeAllForUser(userId: string): Promise<string[]> {
    const memberships = await this.listForUser(userId);
    const objectId = parseObjectId(userId);
    if (objectId) await this.memberships.deleteMany({ userId: objectId });
    await this.accessChanged();
    return memberships.map((membership) => membership.siteId);
  }

  /** Who is a member of `siteId` (to disconnect them when the site goes). */
  async userIdsInSite(siteId: string): Promise<string[]> {
    const objectId = parseObjectId(siteId);
    if (!objectId) return [];
    const documents = await this.memberships.find({ siteId: objectId }, { userId: 1 }).lean<StoredMembership[]>();
    return documents.map((document) => toId(document.userId));
  }
}

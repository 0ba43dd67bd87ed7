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
  constructor(private readonly memberships: MembershipModel) {}

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
}

// One site's memberships (site-scoped): who belongs to the site, with which role and extra capabilities.
import type { GrantedCapability, Role } from '@lumibase/shared';
import type { Types } from 'mongoose';
import { isDuplicateKeyError } from './duplicate-key.js';
import type { MembershipModel } from './models/membership.model.js';
import { type Page, type PageOf, parseObjectId, toId, toIso } from './object-id.js';
import { SiteScopedStore } from './site-scoped.js';

export interface MembershipRecord {
  userId: string;
  role: Role;
  /** The extras only; effective capabilities are computed from the role when read. */
  capabilities: GrantedCapability[];
  createdAt: string;
  updatedAt: string;
}

export interface StoredMembership {
  _id: Types.ObjectId;
  siteId: Types.ObjectId;
  userId: Types.ObjectId;
  role: Role;
  capabilities: GrantedCapability[];
  createdAt: Date;
  updatedAt: Date;
}

function toMembership(document: StoredMembership): MembershipRecord {
  return {
    userId: toId(document.userId),
    role: document.role,
    capabilities: [...(document.capabilities ?? [])],
    createdAt: toIso(document.createdAt),
    updatedAt: toIso(document.updatedAt),
  };
}

export class MembershipStore extends SiteScopedStore {
  constructor(
    private readonly memberships: MembershipModel,
    siteId: string,
    /** Moves the access epoch (AccessEpochStore): a role, a capability or the membership itself changed. */
    private readonly accessChanged: () => Promise<void>,
  ) {
    super(siteId);
  }

  async get(userId: string): Promise<MembershipRecord | null> {
    const objectId = parseObjectId(userId);
    if (!objectId) return null;
    const document = await this.memberships.findOne(this.scoped({ userId: objectId })).lean<StoredMembership>();
    return document ? toMembership(document) : null;
  }

  /** Creates or replaces the user's membership in this site. */
  async put(userId: string, role: Role, capabilities: readonly GrantedCapability[]): Promise<MembershipRecord> {
    const objectId = parseObjectId(userId);
    if (!objectId) throw new TypeError(`MembershipStore.put needs a user id, got ${JSON.stringify(userId)}`);
    const upsert = () =>
      this.memberships
        .findOneAndUpdate(
          this.scoped({ userId: objectId }),
          { $set: { role, capabilities: [...capabilities] } },
          { upsert: true, new: true },
        )
        .lean<StoredMembership>();
    let document: StoredMembership | null;
    try {
      document = await upsert();
    } catch (error) {
      // Two concurrent first PUTs both try to insert; the loser's retry finds the winner's document.
      if (!isDuplicateKeyError(error)) throw error;
      document = await upsert();
    }
    await this.accessChanged();
    return toMembership(document!);
  }

  /** True if the user was a member. */
  async remove(userId: string): Promise<boolean> {
    const objectId = parseObjectId(userId);
    if (!objectId) return false;
    const result = await this.memberships.deleteOne(this.scoped({ userId: objectId }));
    if (result.deletedCount === 0) return false;
    await this.accessChanged();
    return true;
  }

  async list(page: Page): Promise<PageOf<MembershipRecord>> {
    const [documents, total] = await Promise.all([
      this.memberships.find(this.scoped({})).sort({ createdAt: 1, _id: 1 }).skip(page.offset).limit(page.limit).lean<StoredMembership[]>(),
      this.memberships.countDocuments(this.scoped({})),
    ]);
    return { records: documents.map(toMembership), total };
  }
}

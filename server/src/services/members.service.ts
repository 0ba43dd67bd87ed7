// Site memberships: adding, changing and removing members, with the rules on what may be granted.
import {
  effectiveCapabilities,
  ForbiddenError,
  type GrantedCapability,
  hasCapabilities,
  type MemberView,
  type PutMemberRequest,
  type UserView,
  ValidationError,
  WILDCARD,
} from '@lumibase/shared';
import type { MembershipRecord } from '../store/membership.store.js';
import type { Page, PageOf } from '../store/object-id.js';
import type { Stores } from '../store/stores.js';
import type { DomainEvents } from './domain-events.js';
import { recordNotInSite } from '../store/record-not-in-site.js';

/** Who is changing memberships, with what they hold in the site. */
export interface MemberActor {
  user: UserView;
  capabilities: readonly GrantedCapability[];
}

function toMember(membership: MembershipRecord, user: UserView): MemberView {
  const capabilities = effectiveCapabilities(membership.role, membership.capabilities);
  return {
    userId: user.id,
    user,
    role: membership.role,
    capabilities: user.isSuperadmin ? capabilities : capabilities.filter((capability) => capability !== WILDCARD),
    extraCapabilities: membership.capabilities,
    createdAt: membership.createdAt,
    updatedAt: membership.updatedAt,
  };
}

/**
 * Whether `actor` may change or remove `user`'s current membership: a superadmin may change any; a
 * superadmin's membership changes only by a superadmin; anyone else only a member whose current
 * capabilities they all hold. Otherwise a member with `users:write` could demote or remove an admin,
 * and so strip the site of its approvers.
 */
function assertMayManage(actor: MemberActor, user: UserView | null, current: MembershipRecord | null): void {
  if (actor.user.isSuperadmin) return;
  if (user?.isSuperadmin) {
    throw new ForbiddenError({ message: "Only a superadmin may change a superadmin's membership", reason: 'member-is-superadmin' });
  }
  if (!current) return;
  const held = effectiveCapabilities(current.role, current.capabilities).filter((capability) => capability !== WILDCARD);
  if (!hasCapabilities({ capabilities: actor.capabilities, isSuperadmin: false }, held)) {
    throw new ForbiddenError({
      message: 'You cannot change a member who holds capabilities you do not hold',
      reason: 'member-exceeds-own',
    });
  }
}

export class MembersService {
  constructor(
    private readonly stores: Pick<Stores, 'users' | 'forSite'>,
    private readonly events: DomainEvents,
  ) {}

  /**
   * Creates or replaces `userId`'s membership. `*` may only be given to a superadmin (else
   * ValidationError), and nobody but a superadmin may grant capabilities they do not hold
   * themselves, nor change a member who holds more than they do (else ForbiddenError): holding
   * `users:write` must not be a way to become admin, nor to demote one.
   * An unknown or malformed user id is the same refusal as any id outside the site.
   */
  async put(siteId: string, userId: string, input: PutMemberRequest, actor: MemberActor): Promise<MemberView> {
    const user = await this.stores.users.findById(userId);
    if (!user) throw recordNotInSite();
    const extras = [...new Set(input.capabilities ?? [])];
    if (extras.includes(WILDCARD) && !user.isSuperadmin) {
      throw new ValidationError({ details: [{ path: 'capabilities', message: '"*" can only be held by a superadmin' }] });
    }
    const granted = effectiveCapabilities(input.role, extras).filter((capability) => capability !== WILDCARD);
    if (!hasCapabilities({ capabilities: actor.capabilities, isSuperadmin: actor.user.isSuperadmin }, granted)) {
      throw new ForbiddenError({ message: 'You cannot grant capabilities you do not hold', reason: 'grant-exceeds-own' });
    }
    const members = this.stores.forSite(siteId).members;
    assertMayManage(actor, user, await members.get(user.id));
    const membership = await members.put(user.id, input.role, extras);
    return toMember(membership, user);
  }

  /**
   * Removes the membership, under the same rule as changing it; ForbiddenError (the not-in-site
   * refusal) when there is none.
   */
  async remove(siteId: string, userId: string, actor: MemberActor): Promise<void> {
    const members = this.stores.forSite(siteId).members;
    const [membership, user] = await Promise.all([members.get(userId), this.stores.users.findById(userId)]);
    if (!membership) throw recordNotInSite();
    assertMayManage(actor, user, membership);
    const removed = await members.remove(userId);
    if (!removed) throw recordNotInSite();
    this.events.emit('membership-removed', { siteId, userId: userId.toLowerCase() });
  }

  async get(siteId: string, userId: string): Promise<MemberView | null> {
    const [membership, user] = await Promise.all([this.stores.forSite(siteId).members.get(userId), this.stores.users.findById(userId)]);
    return membership && user ? toMember(membership, user) : null;
  }

  async list(siteId: string, page: Page): Promise<PageOf<MemberView>> {
    const { records, total } = await this.stores.forSite(siteId).members.list(page);
    const users = new Map((await this.stores.users.findByIds(records.map((record) => record.userId))).map((user) => [user.id, user]));
    // A membership whose user no longer exists has nobody to show.
    const members = records.flatMap((record) => {
      const user = users.get(record.userId);
      return user ? [toMember(record, user)] : [];
    });
    return { records: members, total };
  }
}

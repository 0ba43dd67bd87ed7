// Site memberships: adding, changing and removing members, with the rules on what may be granted.
import { randomBytes } from 'node:crypto';
import {
  type AddMemberRequest,
  ConflictError,
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
import { PasswordHasher } from '../security/password-hasher.js';
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

/** Whether the membership `after` lacks a capability that `before` held. */
function holdsLess(before: MembershipRecord, after: MembershipRecord): boolean {
  const held = effectiveCapabilities(after.role, after.capabilities);
  return effectiveCapabilities(before.role, before.capabilities).some((capability) => !held.includes(capability));
}

export class MembersService {
  constructor(
    private readonly stores: Pick<Stores, 'users' | 'forSite'>,
    private readonly events: DomainEvents,
    private readonly hasher: PasswordHasher = new PasswordHasher(),
  ) {}

  /**
   * Adds someone by email in one step (POST /members). With no account for that email, one is made
   * with a generated password, answered this once (a name is then required). Someone already in
   * the site is a ConflictError: changing a membership is PUT's job, with its own checks.
   */
  async add(siteId: string, input: AddMemberRequest, actor: MemberActor): Promise<{ member: MemberView; password?: string }> {
    const existing = await this.stores.users.findByEmail(input.email);
    const grant = { role: input.role, ...(input.capabilities ? { capabilities: input.capabilities } : {}) };
    if (existing) {
      if (await this.stores.forSite(siteId).members.get(existing.id)) {
        throw new ConflictError({ message: `${existing.email} is already a member of this site` });
      }
      return { member: await this.put(siteId, existing.id, grant, actor) };
    }
    if (input.name === undefined) {
      throw new ValidationError({
        message: 'Nobody has this email yet: give a name to create the account',
        details: [{ path: 'name', message: 'Required for a new account' }],
      });
    }
    // The grant is checked before the account exists, so a refused grant leaves no account behind.
    this.checkGrant(grant, false, actor);
    const password = randomBytes(12).toString('base64url');
    const user = await this.stores.users.create({
      email: input.email,
      name: input.name,
      passwordHash: await this.hasher.hash(password),
      isSuperadmin: false,
      // Its creator knows its password: until the owner sets their own, no other site's admin may add it.
      ...(actor.user.isSuperadmin ? {} : { heldBySiteId: siteId.toLowerCase() }),
    });
    return { member: await this.put(siteId, user.id, grant, actor), password };
  }

  private checkGrant(input: PutMemberRequest, forSuperadmin: boolean, actor: MemberActor): GrantedCapability[] {
    const extras = [...new Set(input.capabilities ?? [])];
    if (extras.includes(WILDCARD) && !forSuperadmin) {
      throw new ValidationError({ details: [{ path: 'capabilities', message: '"*" can only be held by a superadmin' }] });
    }
    const granted = effectiveCapabilities(input.role, extras).filter((capability) => capability !== WILDCARD);
    if (!hasCapabilities({ capabilities: actor.capabilities, isSuperadmin: actor.user.isSuperadmin }, granted)) {
      throw new ForbiddenError({ message: 'You cannot grant capabilities you do not hold', reason: 'grant-exceeds-own' });
    }
    return extras;
  }

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
    const extras = this.checkGrant(input, user.isSuperadmin, actor);
    const members = this.stores.forSite(siteId).members;
    const current = await members.get(user.id);
    assertMayManage(actor, user, current);
    if (!current && !actor.user.isSuperadmin) await this.assertNotHeldElsewhere(siteId, user);
    const membership = await members.put(user.id, input.role, extras);
    if (current && holdsLess(current, membership))
      this.events.emit('membership-reduced', { siteId: siteId.toLowerCase(), userId: user.id });
    return toMember(membership, user);
  }

  /**
   * An account another site's admin created (and so knows the password of) is that site's until its
   * owner sets their own password: adding it here would hand this site's access to the other admin.
   */
  private async assertNotHeldElsewhere(siteId: string, user: UserView): Promise<void> {
    const holder = await this.stores.users.heldBy(user.id);
    if (holder !== null && holder !== siteId.toLowerCase()) {
      throw new ConflictError({
        message: `${user.email} was created by another site's admin and is not yet its owner's: they must sign in and set their own password first`,
      });
    }
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
    this.events.emit('membership-removed', { siteId: siteId.toLowerCase(), userId: userId.toLowerCase() });
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

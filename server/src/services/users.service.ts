// Accounts: creating, finding, changing and removing users (with their sessions and memberships).
import {
  type CreateUserRequest,
  ForbiddenError,
  NotFoundError,
  type UpdateUserRequest,
  type UserView,
  ValidationError,
} from '@lumibase/shared';
import type { PasswordHasher } from '../security/password-hasher.js';
import type { Page, PageOf } from '../store/object-id.js';
import type { Stores } from '../store/stores.js';
import type { DomainEvents } from './domain-events.js';

/** Who is changing an account, and through which session (a password change keeps that one). */
export interface UserActor {
  user: UserView;
  sessionId?: string | undefined;
}

export class UsersService {
  constructor(
    private readonly stores: Pick<Stores, 'users' | 'sessions' | 'userMemberships'>,
    private readonly hasher: PasswordHasher,
    private readonly events: DomainEvents,
  ) {}

  /** ConflictError when the email is taken. Users made here are never superadmins. */
  async create(input: CreateUserRequest): Promise<UserView> {
    const passwordHash = await this.hasher.hash(input.password);
    return this.stores.users.create({ email: input.email, name: input.name, passwordHash, isSuperadmin: false });
  }

  async get(id: string): Promise<UserView | null> {
    return this.stores.users.findById(id);
  }

  /** With an email: that user or nobody. Without: everyone, in creation order. */
  async list({ email, ...page }: Page & { email?: string | undefined }): Promise<PageOf<UserView>> {
    if (email === undefined) return this.stores.users.list(page);
    const user = await this.stores.users.findByEmail(email);
    const records = user ? [user] : [];
    return { records: records.slice(page.offset, page.offset + page.limit), total: records.length };
  }

  /**
   * A superadmin changes anyone; anyone else only themself (ForbiddenError, whether or not the id
   * exists). Changing one's own password needs the current one. A new password ends the user's
   * other sessions (all of them when a superadmin changes someone else's).
   */
  async update(id: string, input: UpdateUserRequest, actor: UserActor): Promise<UserView> {
    const self = actor.user.id === id.toLowerCase();
    if (!self && !actor.user.isSuperadmin)
      throw new ForbiddenError({ message: 'You may only change your own account', reason: 'not-superadmin' });
    const credentials = await this.stores.users.findCredentialsById(id);
    if (!credentials) throw new NotFoundError({ message: 'No such user' });
    const changes: { name?: string; passwordHash?: string } = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.password !== undefined) {
      if (self) {
        if (input.currentPassword === undefined) {
          throw new ValidationError({ message: 'Give your current password', details: [{ path: 'currentPassword', message: 'Required' }] });
        }
        if (!(await this.hasher.verify(input.currentPassword, credentials.passwordHash))) {
          throw new ValidationError({
            message: 'The current password is not right',
            details: [{ path: 'currentPassword', message: 'Does not match' }],
          });
        }
      }
      changes.passwordHash = await this.hasher.hash(input.password);
    }
    // Setting one's own password makes the account one's own: the site that created it no longer holds it.
    const updated = await this.stores.users.update(credentials.user.id, changes, { release: self && changes.passwordHash !== undefined });
    if (!updated) throw new NotFoundError({ message: 'No such user' });
    if (changes.passwordHash !== undefined) {
      const ended = await this.stores.sessions.deleteForUser(updated.id, self ? actor.sessionId : undefined);
      for (const sessionId of ended) this.events.emit('session-revoked', { sessionId, userId: updated.id });
    }
    return updated;
  }

  /** Removes the account, its sessions (their sockets disconnect) and its memberships. Never oneself. */
  async remove(id: string, actor: UserActor): Promise<void> {
    if (actor.user.id === id.toLowerCase()) {
      throw new ValidationError({ message: 'You cannot remove your own account', details: [{ path: 'id', message: 'Is you' }] });
    }
    const user = await this.stores.users.findById(id);
    if (!user) throw new NotFoundError({ message: 'No such user' });
    // The account goes first: from then on its token authenticates nobody, even before its sessions are deleted.
    await this.stores.users.delete(user.id);
    const sessions = await this.stores.sessions.deleteForUser(user.id);
    const sites = await this.stores.userMemberships.removeAllForUser(user.id);
    for (const sessionId of sessions) this.events.emit('session-revoked', { sessionId, userId: user.id });
    for (const siteId of sites) this.events.emit('membership-removed', { siteId, userId: user.id });
  }
}

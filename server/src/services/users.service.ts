// Accounts: creating users and finding them (by email, to add them to a site).
import type { CreateUserRequest, UserView } from '@lumibase/shared';
import type { PasswordHasher } from '../security/password-hasher.js';
import type { Page, PageOf } from '../store/object-id.js';
import type { UserStore } from '../store/user.store.js';

export class UsersService {
  constructor(
    private readonly users: UserStore,
    private readonly hasher: PasswordHasher,
  ) {}

  /** ConflictError when the email is taken. Users made here are never superadmins. */
  async create(input: CreateUserRequest): Promise<UserView> {
    const passwordHash = await this.hasher.hash(input.password);
    return this.users.create({ email: input.email, name: input.name, passwordHash, isSuperadmin: false });
  }

  async get(id: string): Promise<UserView | null> {
    return this.users.findById(id);
  }

  /** With an email: that user or nobody. Without: everyone, in creation order. */
  async list({ email, ...page }: Page & { email?: string | undefined }): Promise<PageOf<UserView>> {
    if (email === undefined) return this.users.list(page);
    const user = await this.users.findByEmail(email);
    const records = user ? [user] : [];
    return { records: records.slice(page.offset, page.offset + page.limit), total: records.length };
  }
}

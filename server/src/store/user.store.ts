// Users: global accounts. The password hash never leaves this store except through findCredentials.
import { ConflictError, type UserView } from '@lumibase/shared';
import type { Types } from 'mongoose';
import { isDuplicateKeyError } from './duplicate-key.js';
import type { UserModel } from './models/user.model.js';
import { type Page, type PageOf, parseObjectId, toId } from './object-id.js';

interface StoredUser {
  _id: Types.ObjectId;
  email: string;
  name: string;
  passwordHash: string;
  isSuperadmin: boolean;
}

export interface NewUser {
  email: string;
  name: string;
  passwordHash: string;
  isSuperadmin: boolean;
  /** The site the account belongs to until its owner sets their own password. */
  heldBySiteId?: string;
}

export interface UserCredentials {
  user: UserView;
  passwordHash: string;
}

const PUBLIC_FIELDS = { email: 1, name: 1, isSuperadmin: 1 } as const;

function toUser(document: Pick<StoredUser, '_id' | 'email' | 'name' | 'isSuperadmin'>): UserView {
  return { id: toId(document._id), email: document.email, name: document.name, isSuperadmin: document.isSuperadmin === true };
}

export class UserStore {
  constructor(
    private readonly users: UserModel,
    /** Moves the access epoch (AccessEpochStore): who a session's user is, as requests see it, changed. */
    private readonly accessChanged: () => Promise<void>,
  ) {}

  /** Throws ConflictError when the email is taken (the unique index decides, so two racing creates cannot both win). */
  async create(user: NewUser): Promise<UserView> {
    try {
      const [created] = await this.users.create([user]);
      return toUser(created!);
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new ConflictError({ message: 'A user with this email already exists' });
      throw error;
    }
  }

  async findById(id: string): Promise<UserView | null> {
    const objectId = parseObjectId(id);
    if (!objectId) return null;
    const document = await this.users.findById(objectId, PUBLIC_FIELDS).lean<StoredUser>();
    return document ? toUser(document) : null;
  }

  async findCredentialsById(id: string): Promise<UserCredentials | null> {
    const objectId = parseObjectId(id);
    if (!objectId) return null;
    const document = await this.users.findById(objectId).lean<StoredUser>();
    return document ? { user: toUser(document), passwordHash: document.passwordHash } : null;
  }

  /**
   * The user after the change, or null when there is no such user. `release` ends the hold of the
   * site that created the account (its owner has set their own password).
   */
  async update(id: string, changes: { name?: string; passwordHash?: string }, { release = false } = {}): Promise<UserView | null> {
    const objectId = parseObjectId(id);
    if (!objectId) return null;
    const update = release ? { $set: changes, $unset: { heldBySiteId: 1 } } : { $set: changes };
    const document = await this.users
      .findOneAndUpdate({ _id: objectId }, update, { new: true, projection: PUBLIC_FIELDS })
      .lean<StoredUser>();
    if (!document) return null;
    await this.accessChanged();
    return toUser(document);
  }

  /** True if the user existed. */
  async delete(id: string): Promise<boolean> {
    const objectId = parseObjectId(id);
    if (!objectId) return false;
    const result = await this.users.deleteOne({ _id: objectId });
    if (result.deletedCount === 0) return false;
    await this.accessChanged();
    return true;
  }

  /** The site that holds the account (created it and its owner has not yet set a password), or null. */
  async heldBy(id: string): Promise<string | null> {
    const objectId = parseObjectId(id);
    if (!objectId) return null;
    const document = await this.users.findById(objectId, { heldBySiteId: 1 }).lean<{ heldBySiteId?: string }>();
    return document?.heldBySiteId ?? null;
  }

  async findByEmail(email: string): Promise<UserView | null> {
    const document = await this.users.findOne({ email }, PUBLIC_FIELDS).lean<StoredUser>();
    return document ? toUser(document) : null;
  }

  async findCredentials(email: string): Promise<UserCredentials | null> {
    const document = await this.users.findOne({ email }).lean<StoredUser>();
    return document ? { user: toUser(document), passwordHash: document.passwordHash } : null;
  }

  async findByIds(ids: readonly string[]): Promise<UserView[]> {
    const objectIds = ids.map(parseObjectId).filter((id) => id !== null);
    if (objectIds.length === 0) return [];
    const documents = await this.users.find({ _id: { $in: objectIds } }, PUBLIC_FIELDS).lean<StoredUser[]>();
    return documents.map(toUser);
  }

  async list(page: Page): Promise<PageOf<UserView>> {
    const [documents, total] = await Promise.all([
      this.users.find({}, PUBLIC_FIELDS).sort({ createdAt: 1, _id: 1 }).skip(page.offset).limit(page.limit).lean<StoredUser[]>(),
      this.users.countDocuments(),
    ]);
    return { records: documents.map(toUser), total };
  }

  async count(): Promise<number> {
    return this.users.estimatedDocumentCount();
  }
}

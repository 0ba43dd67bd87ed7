// Sessions: stored by the SHA-256 of their token (a database leak yields no usable token).
import type { Types } from 'mongoose';
import type { SessionModel } from './models/session.model.js';
import { parseObjectId, toId } from './object-id.js';

export interface SessionRecord {
  id: string;
  userId: string;
  expiresAt: Date;
}

interface StoredSession {
  _id: Types.ObjectId;
  userId: Types.ObjectId;
  expiresAt: Date;
}

function toSession(document: StoredSession): SessionRecord {
  return { id: toId(document._id), userId: toId(document.userId), expiresAt: new Date(document.expiresAt) };
}

export class SessionStore {
  constructor(
    private readonly sessions: SessionModel,
    /** Moves the access epoch (AccessEpochStore): a session ended is access taken away. */
    private readonly accessChanged: () => Promise<void>,
  ) {}

  async create(session: { tokenHash: string; userId: string; expiresAt: Date }): Promise<SessionRecord> {
    const [created] = await this.sessions.create([{ ...session, userId: parseObjectId(session.userId) }]);
    return toSession(created!);
  }

  /** The session a token hash names if it has not expired at `now` (the TTL monitor runs only once a minute). */
  async findActive(tokenHash: string, now: Date): Promise<SessionRecord | null> {
    const document = await this.sessions.findOne({ tokenHash, expiresAt: { $gt: now } }).lean<StoredSession>();
    return document ? toSession(document) : null;
  }

  /** True if the session existed. */
  async delete(id: string): Promise<boolean> {
    const objectId = parseObjectId(id);
    if (!objectId) return false;
    const result = await this.sessions.deleteOne({ _id: objectId });
    if (result.deletedCount === 0) return false;
    await this.accessChanged();
    return true;
  }

  /** Ends every session of `userId` but `exceptSessionId`; answers the ids of those it ended. */
  async deleteForUser(userId: string, exceptSessionId?: string): Promise<string[]> {
    const objectId = parseObjectId(userId);
    if (!objectId) return [];
    const documents = await this.sessions.find({ userId: objectId }, { _id: 1 }).lean<Pick<StoredSession, '_id'>[]>();
    const ids = documents.map((document) => toId(document._id)).filter((id) => id !== exceptSessionId);
    if (ids.length === 0) return [];
    await this.sessions.deleteMany({ _id: { $in: ids.map((id) => parseObjectId(id)!) } });
    await this.accessChanged();
    return ids;
  }
}

// ai_conversations and ai_messages for one site: a user's Copilot conversations and their memory.
import type { MessageRole, SkillOutcome, TokenUsage } from '@lumibase/shared';
import { Types } from 'mongoose';
import { isDuplicateKeyError } from '../duplicate-key.js';
import type { AiModels, ConversationDocument, MessageDocument } from './ai-models.js';
import { decodeJson, encodeJson } from '../json-codec.js';
import { parseObjectId, toIso } from '../object-id.js';
import { SiteScopedStore } from '../site-scoped.js';

/** How many stored messages a chat turn passes to the planner. */
export const CONTEXT_MESSAGES = 20;

export interface Conversation {
  id: string;
  siteId: string;
  userId: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

export interface ConversationMessage {
  id: string;
  conversationId: string;
  role: MessageRole;
  content: string;
  results?: SkillOutcome[];
  usage?: TokenUsage;
  createdAt: string;
}

export type NewConversationMessage = Omit<ConversationMessage, 'id' | 'conversationId'>;

export interface ConversationRepository {
  readonly siteId: string;
  create(conversation: { userId: string; title: string; at: Date }): Promise<Conversation>;
  get(id: string): Promise<Conversation | null>;
  listForUser(userId: string, options?: { limit?: number; offset?: number }): Promise<Conversation[]>;
  countForUser(userId: string): Promise<number>;
  /** Deletes the conversation and its messages; false when it is not in this site. */
  delete(id: string): Promise<boolean>;
  appendMessage(conversationId: string, message: NewConversationMessage): Promise<ConversationMessage>;
  /** appendMessage under a given id, once: a message with this id there already is left as it is. */
  appendMessageOnce(id: string, conversationId: string, message: NewConversationMessage): Promise<void>;
  /** Which of `ids` the site holds messages of (one read). */
  heldMessages(ids: readonly string[]): Promise<Set<string>>;
  /** The latest `limit` messages (default 20), oldest first: the planner's context window. */
  latestMessages(conversationId: string, limit?: number): Promise<ConversationMessage[]>;
  listMessages(conversationId: string, options?: { limit?: number; offset?: number }): Promise<ConversationMessage[]>;
  countMessages(conversationId: string): Promise<number>;
}

function toConversation(document: ConversationDocument): Conversation {
  const { _id, siteId, userId, title, createdAt, updatedAt } = document;
  return { id: _id.toHexString(), siteId: siteId.toString(), userId, title, createdAt: toIso(createdAt), updatedAt: toIso(updatedAt) };
}

function toMessage(document: MessageDocument): ConversationMessage {
  const message: ConversationMessage = {
    id: document._id.toHexString(),
    conversationId: document.conversationId,
    role: document.role,
    content: document.content ?? '',
    createdAt: toIso(document.createdAt),
  };
  if (document.resultsJson != null) message.results = decodeJson(document.resultsJson) as SkillOutcome[];
  if (document.usage != null)
    message.usage = { inputTokens: document.usage.inputTokens ?? 0, outputTokens: document.usage.outputTokens ?? 0 };
  return message;
}

export class ConversationStore extends SiteScopedStore implements ConversationRepository {
  constructor(
    private readonly models: Pick<AiModels, 'conversations' | 'messages'>,
    siteId: string,
  ) {
    super(siteId);
  }

  async create({ userId, title, at }: { userId: string; title: string; at: Date }): Promise<Conversation> {
    const fields = { userId, title, createdAt: at, updatedAt: at };
    const [created] = await this.models.conversations.insertMany([this.owned(fields)], { lean: true });
    return { id: created!._id.toHexString(), siteId: this.siteId, userId, title, createdAt: toIso(at), updatedAt: toIso(at) };
  }

  async get(id: string): Promise<Conversation | null> {
    const _id = parseObjectId(id);
    if (!_id) return null;
    const document = await this.models.conversations.findOne(this.scoped({ _id })).lean<ConversationDocument>();
    return document ? toConversation(document) : null;
  }

  async listForUser(userId: string, { limit = 25, offset = 0 }: { limit?: number; offset?: number } = {}): Promise<Conversation[]> {
    const documents = await this.models.conversations
      .find(this.scoped({ userId }))
      .sort({ updatedAt: -1, _id: -1 })
      .skip(offset)
      .limit(limit)
      .lean<ConversationDocument[]>();
    return documents.map(toConversation);
  }

  countForUser(userId: string): Promise<number> {
    return this.models.conversations.countDocuments(this.scoped({ userId }));
  }

  async delete(id: string): Promise<boolean> {
    const _id = parseObjectId(id);
    if (!_id) return false;
    const { deletedCount } = await this.models.conversations.deleteOne(this.scoped({ _id }));
    // Messages go even if the conversation was already gone: a crash between the two deletes
    // leaves no orphans after a retry.
    await this.models.messages.deleteMany(this.scoped({ conversationId: id }));
    return deletedCount > 0;
  }

  async appendMessage(conversationId: string, message: NewConversationMessage): Promise<ConversationMessage> {
    const _id = new Types.ObjectId();
    await this.insertMessage(_id, conversationId, message);
    return { ...message, id: _id.toHexString(), conversationId };
  }

  /** appendMessage under a given id, once: a message with this id there already is left as it is. */
  async appendMessageOnce(id: string, conversationId: string, message: NewConversationMessage): Promise<void> {
    try {
      await this.insertMessage(new Types.ObjectId(id), conversationId, message);
    } catch (error) {
      // There already: the conversation was touched all the same (insertMessage touches it whatever the insert does).
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  async heldMessages(ids: readonly string[]): Promise<Set<string>> {
    // By the stored id's hex form: the caller's id as it gave it (a malformed one is held by nobody).
    const asked = new Map<string, { _id: Types.ObjectId; id: string }>();
    for (const id of ids) {
      const _id = parseObjectId(id);
      if (_id) asked.set(_id.toHexString(), { _id, id });
    }
    if (asked.size === 0) return new Set();
    const _ids = [...asked.values()].map(({ _id }) => _id);
    const held = await this.models.messages.find(this.scoped({ _id: { $in: _ids } }), { _id: 1 }).lean();
    return new Set(held.map((document) => asked.get(document._id.toHexString())?.id as string));
  }

  private async insertMessage(_id: Types.ObjectId, conversationId: string, message: NewConversationMessage): Promise<void> {
    const { results, createdAt, ...rest } = message;
    const document = this.owned({
      _id,
      ...rest,
      createdAt: new Date(createdAt),
      conversationId,
      ...(results === undefined ? {} : { resultsJson: encodeJson(results) }),
    });
    // The insert and the conversation's touch at once: the touch only moves `updatedAt` forward (`$max`), so it is as
    // right before the message lands as after, and an insert that fails (a duplicate, a dropped connection) leaves a
    // conversation no worse than a retry that lands would.
    const [inserted, touched] = await Promise.allSettled([
      this.models.messages.insertMany([document], { lean: true }),
      this.touch(conversationId, createdAt),
    ]);
    if (inserted.status === 'rejected') throw inserted.reason;
    if (touched.status === 'rejected') throw touched.reason;
  }

  private async touch(conversationId: string, at: string): Promise<void> {
    const _id = parseObjectId(conversationId);
    // Without a well-formed id the filter would lose its `_id` and touch some other conversation.
    if (_id) await this.models.conversations.updateOne(this.scoped({ _id }), { $max: { updatedAt: new Date(at) } });
  }

  async latestMessages(conversationId: string, limit = CONTEXT_MESSAGES): Promise<ConversationMessage[]> {
    const documents = await this.models.messages
      .find(this.scoped({ conversationId }))
      .sort({ createdAt: -1, _id: -1 })
      .limit(limit)
      .lean<MessageDocument[]>();
    return documents.map(toMessage).reverse();
  }

  async listMessages(
    conversationId: string,
    { limit = 25, offset = 0 }: { limit?: number; offset?: number } = {},
  ): Promise<ConversationMessage[]> {
    const documents = await this.models.messages
      .find(this.scoped({ conversationId }))
      .sort({ createdAt: 1, _id: 1 })
      .skip(offset)
      .limit(limit)
      .lean<MessageDocument[]>();
    return documents.map(toMessage);
  }

  countMessages(conversationId: string): Promise<number> {
    return this.models.messages.countDocuments(this.scoped({ conversationId }));
  }
}

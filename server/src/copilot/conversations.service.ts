// An admin's own Copilot conversations in a site: list them, read one's messages, delete one.
import type { AiStoreFactory } from '../store/ai/ai-stores.js';
import type { Conversation, ConversationMessage } from '../store/ai/conversation.store.js';
import type { Page, PageOf } from '../store/object-id.js';
import { ownConversation } from './chat.service.js';

/** Someone else's conversation, another site's, an unknown or a malformed id: the not-in-site ForbiddenError. */
export class ConversationsService {
  constructor(private readonly stores: Pick<AiStoreFactory, 'forSite'>) {}

  /** Most recently active first. */
  async list(siteId: string, userId: string, page: Page): Promise<PageOf<Conversation>> {
    const { conversations } = this.stores.forSite(siteId);
    const [records, total] = await Promise.all([conversations.listForUser(userId, page), conversations.countForUser(userId)]);
    return { records, total };
  }

  /** Oldest first. */
  async messages(siteId: string, userId: string, conversationId: string, page: Page): Promise<PageOf<ConversationMessage>> {
    const { conversations } = this.stores.forSite(siteId);
    const conversation = await ownConversation(conversations, conversationId, userId);
    const [records, total] = await Promise.all([
      conversations.listMessages(conversation.id, page),
      conversations.countMessages(conversation.id),
    ]);
    return { records, total };
  }

  async remove(siteId: string, userId: string, conversationId: string): Promise<void> {
    const { conversations } = this.stores.forSite(siteId);
    const conversation = await ownConversation(conversations, conversationId, userId);
    await conversations.delete(conversation.id);
  }
}

// /ai/conversations: an admin's Copilot conversations in a site and their messages.
import { z } from 'zod';
import { SkillOutcome } from '../skills/outcome.js';
import { TokenUsage } from './chat.js';
import { ListMeta, ListQuery } from './envelope.js';

export const MESSAGE_ROLES = ['user', 'assistant'] as const;
export const MessageRole = z.enum(MESSAGE_ROLES);
export type MessageRole = z.infer<typeof MessageRole>;

export const ConversationJson = z.object({
  id: z.string(),
  siteId: z.string(),
  userId: z.string(),
  title: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type ConversationJson = z.infer<typeof ConversationJson>;

export const ConversationMessageJson = z.object({
  id: z.string(),
  conversationId: z.string(),
  role: MessageRole,
  content: z.string(),
  /** For an assistant message: the outcome of each skill call of that turn. */
  results: z.array(SkillOutcome).optional(),
  /** For an assistant message of a remote model: the tokens of that turn's model calls. */
  usage: TokenUsage.optional(),
  createdAt: z.iso.datetime(),
});
export type ConversationMessageJson = z.infer<typeof ConversationMessageJson>;

export const ListConversationsQuery = ListQuery;
export const ListConversationsResponse = z.object({ data: z.array(ConversationJson), meta: ListMeta });
export type ListConversationsResponse = z.infer<typeof ListConversationsResponse>;

export const ListMessagesQuery = ListQuery;
export const ListMessagesResponse = z.object({ data: z.array(ConversationMessageJson), meta: ListMeta });
export type ListMessagesResponse = z.infer<typeof ListMessagesResponse>;

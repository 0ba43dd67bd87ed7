// The Copilot's records as they cross the wire: ISO dates, `id`, nothing else changed.
import { toApprovalJson } from '@lumibase/shared';
import type { AuditEntry, AuditEntryJson, ConversationJson, ConversationMessageJson } from '@lumibase/shared';
import type { Conversation, ConversationMessage } from '../store/ai/conversation.store.js';

export const approvalJson = toApprovalJson;

export function auditEntryJson(entry: AuditEntry): AuditEntryJson {
  return { ...entry, createdAt: entry.createdAt.toISOString() };
}

export function conversationJson(conversation: Conversation): ConversationJson {
  return { ...conversation, createdAt: conversation.createdAt.toISOString(), updatedAt: conversation.updatedAt.toISOString() };
}

export function conversationMessageJson(message: ConversationMessage): ConversationMessageJson {
  return { ...message, createdAt: message.createdAt.toISOString() };
}

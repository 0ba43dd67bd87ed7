// The Copilot's records as they cross the wire: ISO dates, `id`, nothing else changed.
import type { Approval, ApprovalJson, AuditEntry, AuditEntryJson, ConversationJson, ConversationMessageJson } from '@lumibase/shared';
import type { Conversation, ConversationMessage } from '../store/ai/conversation.store.js';

export function approvalJson(approval: Approval): ApprovalJson {
  const { createdAt, updatedAt, decidedAt, ...rest } = approval;
  return {
    ...rest,
    ...(decidedAt ? { decidedAt: decidedAt.toISOString() } : {}),
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}

export function auditEntryJson(entry: AuditEntry): AuditEntryJson {
  return { ...entry, createdAt: entry.createdAt.toISOString() };
}

export function conversationJson(conversation: Conversation): ConversationJson {
  return { ...conversation, createdAt: conversation.createdAt.toISOString(), updatedAt: conversation.updatedAt.toISOString() };
}

export function conversationMessageJson(message: ConversationMessage): ConversationMessageJson {
  return { ...message, createdAt: message.createdAt.toISOString() };
}

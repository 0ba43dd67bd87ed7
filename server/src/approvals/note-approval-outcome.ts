// A decided approval told to the conversation it came from, so the next turn's model knows what became of it.
import type { Approval } from '@lumibase/shared';
import type { ConversationRepository } from '../store/ai/conversation.store.js';

const SHOWN_MAX = 1000;

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length <= SHOWN_MAX ? text : `${text.slice(0, SHOWN_MAX)}…`;
}

/** The message for an approval that was settled: approved with its result, rejected with why, failed with the error, expired. */
export function approvalOutcomeText(approval: Approval): string | undefined {
  const call = `${approval.skillName} ${shown(approval.arguments)}`;
  const by = approval.decidedBy ? ` by ${approval.decidedBy.name}` : '';
  switch (approval.status) {
    case 'approved':
      return `Update on approval ${approval.id}: ${call} was approved${by} and ran.${approval.result === undefined ? '' : ` Result: ${shown(approval.result)}`}`;
    case 'rejected':
      return `Update on approval ${approval.id}: ${call} was rejected${by}${approval.reason ? `: ${approval.reason}` : ''}. It did not run.`;
    case 'pending':
      return approval.lastError
        ? `Update on approval ${approval.id}: ${call} was approved but failed: ${approval.lastError}. It is pending again.`
        : undefined;
    case 'expired':
      return `Update on approval ${approval.id}: ${call} expired (${approval.reason === 'target_changed' ? 'what it would change has changed since it was asked for' : 'nobody decided in time'}). It did not run.`;
    default:
      return undefined;
  }
}

/** Appends the outcome to the approval's conversation; approvals made outside a conversation are left alone. */
export async function noteApprovalOutcome({
  conversations,
  approval,
  at,
}: {
  conversations: Pick<ConversationRepository, 'appendMessage'> | undefined;
  approval: Approval;
  at: Date;
}): Promise<void> {
  const conversationId = approval.context.conversationId;
  const content = approvalOutcomeText(approval);
  if (!conversations || !conversationId || !content) return;
  await conversations.appendMessage(conversationId, { role: 'assistant', content, createdAt: at.toISOString() });
}

// A decided approval told to the conversation it came from, so the next turn's model knows what became of it.
import type { Approval } from '@lumibase/shared';
import type { ApprovalOwes } from './approval.store.js';

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

/** The outcome note the approval's conversation is owed; none for approvals made outside a conversation. */
export function outcomeNote(approval: Approval, at: Date): ApprovalOwes['note'] {
  const conversationId = approval.context.conversationId;
  const content = approvalOutcomeText(approval);
  if (!conversationId || !content) return undefined;
  return { conversationId, content, createdAt: at.toISOString() };
}

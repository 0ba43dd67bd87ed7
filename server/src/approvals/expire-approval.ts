// An approval that can no longer be decided: its time ran out (`ttl`) or its target changed (`target_changed`).
import type { Approval, ExpiryReason } from '@lumibase/shared';
import type { ApprovalRepository } from '../store/ai/approval.store.js';
import type { AuditRepository } from '../store/ai/audit.store.js';
import type { ConversationRepository } from '../store/ai/conversation.store.js';
import { noteApprovalOutcome } from './note-approval-outcome.js';

/** The actor of an expiry nobody decided: the system. */
export const SYSTEM_ACTOR = { id: 'system', name: 'LumiBase' };

/**
 * Moves the approval from its current status (pending, or executing when the worker found its target
 * changed) to `expired`, final, with its `approval-decided` event, and audits it once: of two expiries
 * of the same approval (the sweep and a decide) one wins. Returns the expired approval, or null.
 */
export async function expireApproval({
  approval,
  approvals,
  audit,
  conversations,
  reason,
  at,
}: {
  approval: Approval;
  approvals: ApprovalRepository;
  audit: AuditRepository;
  /** The conversation the approval came from hears that it expired (see note-approval-outcome.ts). */
  conversations?: Pick<ConversationRepository, 'appendMessage'> | undefined;
  reason: ExpiryReason;
  at: Date;
}): Promise<Approval | null> {
  if (approval.status !== 'pending' && approval.status !== 'executing') return null;
  const expired = await approvals.transition(approval.id, { from: approval.status, to: 'expired', at, set: { reason } });
  if (!expired) return null;
  await audit.append({
    action: 'expired',
    skillName: approval.skillName,
    approvalId: approval.id,
    actor: SYSTEM_ACTOR,
    detail: { reason, ...(reason === 'ttl' ? { expiresAt: approval.expiresAt } : {}) },
    createdAt: at.toISOString(),
  });
  await noteApprovalOutcome({ conversations, approval: expired, at });
  return expired;
}

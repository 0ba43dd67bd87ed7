// A decided approval told to the conversation it came from, so the next turn's model knows what became of it.
// Told as data: the note's words are fixed; the decider's name, their reason and the result travel in the outcome's
// `decision`, which the model reads as a tool result (delimited JSON), never as its own earlier words.
import { type Approval, type ApprovalDecisionNote, quotedSkill, type SkillOutcome } from '@lumibase/shared';
import type { NewConversationMessage } from '../store/ai/conversation.store.js';
import type { ApprovalOwes } from '../store/ai/approval-transition.js';

/** What became of the approval, or undefined while it has nothing to tell (pending, executing). */
function decisionOf(approval: Approval): ApprovalDecisionNote | undefined {
  const decidedBy = approval.decidedBy ? { decidedBy: { name: approval.decidedBy.name } } : {};
  switch (approval.status) {
    case 'approved':
      return { status: 'approved', ...decidedBy, ...(approval.result === undefined ? {} : { result: approval.result }) };
    case 'rejected':
      return { status: 'rejected', ...decidedBy, ...(approval.reason ? { reason: approval.reason } : {}) };
    case 'pending':
      return approval.lastError ? { status: 'failed', ...decidedBy, error: approval.lastError } : undefined;
    case 'expired':
      return { status: 'expired', ...(approval.reason ? { reason: approval.reason } : {}) };
    default:
      return undefined;
  }
}

const SAID: Record<ApprovalDecisionNote['status'], string> = {
  approved: 'was approved and ran',
  rejected: 'was rejected; it did not run',
  failed: 'was approved but failed; it is pending again',
  expired: 'expired; it did not run',
};

/** The note's message: fixed words for people reading the conversation, the outcome as data for the model. */
export function approvalOutcomeMessage(approval: Approval, at: Date): NewConversationMessage | undefined {
  const decision = decisionOf(approval);
  if (!decision) return undefined;
  // An expiry's reason is the server's own (ttl, target_changed), never someone's words: it may be said.
  const said =
    decision.status === 'expired'
      ? `expired (${decision.reason === 'target_changed' ? 'what it would change has changed since it was asked for' : 'nobody decided in time'}); it did not run`
      : SAID[decision.status];
  const content = `Update on approval ${approval.id}: ${subjectOf(approval)} ${said}.`;
  // One outcome per planned call: the run's model reads them as the tool results of the calls it planned.
  const results = plannedCalls(approval).map(
    (step): SkillOutcome => ({
      status: 'pending_approval',
      skill: { name: step.skillName, arguments: step.arguments },
      approvalId: approval.id,
      message: content,
      decision: stepDecision(decision, step),
    }),
  );
  return { role: 'assistant', content, results, createdAt: at.toISOString() };
}

/** What the note speaks of: “Delete a collection”, or "the plan of 4 steps". */
function subjectOf(approval: Approval): string {
  const steps = approval.steps?.length ?? 1;
  return steps > 1 ? `the plan of ${steps} steps` : quotedSkill(approval.skillName);
}

/** A plan's step as far as its note needs it (docs/API.md "Runs and plans"); an approval without steps is a plan of one. */
interface PlannedStep {
  skillName: string;
  arguments: unknown;
  status?: string;
  result?: unknown;
  error?: string;
}

function plannedCalls(approval: Approval): PlannedStep[] {
  const steps = (approval as Approval & { steps?: PlannedStep[] }).steps;
  if (Array.isArray(steps) && steps.length > 1) return steps;
  return [{ skillName: approval.skillName, arguments: approval.arguments }];
}

/** The plan's outcome as one step's: its own result when the plan ran, its own error where it failed. */
function stepDecision(decision: ApprovalDecisionNote, step: PlannedStep): ApprovalDecisionNote {
  if (step.status === undefined) return decision;
  if (decision.status === 'approved') {
    const { result: _whole, ...rest } = decision;
    return { ...rest, ...(step.result === undefined ? {} : { result: step.result }) };
  }
  if (decision.status === 'failed' && step.error) return { ...decision, error: step.error };
  return decision;
}

/** The outcome note the approval's conversation is owed; none for approvals made outside a conversation. */
export function outcomeNote(approval: Approval, at: Date): ApprovalOwes['note'] {
  const conversationId = approval.context.conversationId;
  const message = approvalOutcomeMessage(approval, at);
  if (!conversationId || !message) return undefined;
  return { conversationId, content: message.content, results: message.results ?? [], createdAt: message.createdAt };
}

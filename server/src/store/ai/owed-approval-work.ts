// What the outbox relay does for approvals besides their events: appends the audit entries and conversation
// notes their status changes owe, each under the id it was owed with (a repeat adds nothing), queues the run's
// continuation each note owes, then clears them.
import { type AuditAction, actorRefOf, type CopilotContinuationJob, type SkillOutcome } from '@lumibase/shared';
import type { Types } from 'mongoose';
import type { OwedWork } from '../outbox.js';
import type { AiModels } from './ai-models.js';
import { AuditStore } from './audit.store.js';
import { ConversationStore } from './conversation.store.js';
import { decodeJson } from '../json-codec.js';
import { toIso } from '../object-id.js';

interface OwedAudit {
  entryId: Types.ObjectId;
  action: AuditAction;
  skillName?: string;
  approvalId?: string;
  actor: { id: string; name?: string; email?: string };
  detailJson?: string;
  createdAt: Date;
}

interface OwedNote {
  messageId: Types.ObjectId;
  conversationId: string;
  content: string;
  resultsJson?: string | null;
  createdAt: Date;
}

interface OwingApproval {
  _id: Types.ObjectId;
  siteId: Types.ObjectId;
  owedAudit?: OwedAudit[];
  owedNotes?: OwedNote[];
}

function owesWork(document: Pick<OwingApproval, 'owedAudit' | 'owedNotes'>): boolean {
  return (document.owedAudit?.length ?? 0) > 0 || (document.owedNotes?.length ?? 0) > 0;
}

/**
 * In the order owed: a second relay pass, or a relay in another process at the same time, finds an
 * entry there already (by its id) and only clears it, so each lands once and the chain stays gap-free.
 */
export function owedApprovalWork(
  models: Pick<AiModels, 'approvals' | 'audit' | 'auditHeads' | 'conversations' | 'messages'>,
  /**
   * A note owed by a settlement continues its run (docs/API.md "The run continues"): queued once the note is in the
   * conversation and before it is cleared, so a crash or a refused add leaves it owed and it is queued again
   * (the job id is the note's: queued twice, it runs once).
   */
  continueRun?: (job: CopilotContinuationJob) => Promise<void>,
): OwedWork {
  return {
    owing: { $or: [{ 'owedAudit.0': { $exists: true } }, { 'owedNotes.0': { $exists: true } }] },
    settled: {
      $and: [
        { $or: [{ owedAudit: { $size: 0 } }, { owedAudit: { $exists: false } }] },
        { $or: [{ owedNotes: { $size: 0 } }, { owedNotes: { $exists: false } }] },
      ],
    },
    async drain(id, written) {
      // The write left nothing owed (a status change that owes no entry or note, or the insert): anything owed
      // since was owed by a later write, whose own relay drains it; leftovers of a failed relay were in `written`.
      if (written && !owesWork(written as OwingApproval)) return;
      // What it owes is in the written document as well: every entry owed up to that write, each landing once by its id.
      const document =
        (written as OwingApproval | undefined) ??
        (await models.approvals.findById(id, { siteId: 1, owedAudit: 1, owedNotes: 1 }).lean<OwingApproval>());
      if (!document) return;
      const siteId = document.siteId.toString();
      const audit = new AuditStore(models, siteId);
      const appendAudit = async () => {
        for (const owed of document.owedAudit ?? []) {
          await audit.appendOnce(owed.entryId.toHexString(), {
            action: owed.action,
            ...(owed.skillName != null ? { skillName: owed.skillName } : {}),
            ...(owed.approvalId != null ? { approvalId: owed.approvalId } : {}),
            actor: actorRefOf(owed.actor),
            ...(owed.detailJson != null ? { detail: decodeJson(owed.detailJson) as Record<string, unknown> } : {}),
            createdAt: toIso(owed.createdAt),
          });
        }
      };
      const conversations = new ConversationStore(models, siteId);
      const unqueued: string[] = [];
      const appendNotes = async () => {
        for (const owed of document.owedNotes ?? []) {
          await conversations.appendMessageOnce(owed.messageId.toHexString(), owed.conversationId, {
            role: 'assistant',
            content: owed.content,
            ...(owed.resultsJson != null ? { results: decodeJson(owed.resultsJson) as SkillOutcome[] } : {}),
            createdAt: toIso(owed.createdAt),
          });
          if (continueRun) {
            try {
              await continueRun({ siteId, approvalId: document._id.toHexString(), noteId: owed.messageId.toHexString() });
            } catch {
              // Redis refused it: the note stays owed (the events below still go) and a later pass queues it.
              unqueued.push(owed.messageId.toHexString());
            }
          }
        }
      };
      // The audit chain and the conversation are apart: both at once, each in its own order. Either failing leaves
      // everything owed (nothing is cleared) once both are over; the next pass finds what landed by its id.
      const [audited, noted] = await Promise.allSettled([appendAudit(), appendNotes()]);
      for (const done of [audited, noted]) if (done.status === 'rejected') throw done.reason;
      const auditIds = (document.owedAudit ?? []).map((owed) => owed.entryId);
      const noteIds = (document.owedNotes ?? []).map((owed) => owed.messageId).filter((id) => !unqueued.includes(id.toHexString()));
      if (auditIds.length === 0 && noteIds.length === 0) return undefined;
      // Cleared with the approval's relayed events, in one write (OutboxRelay). A crash before it only means the next
      // pass finds them there already.
      return { owedAudit: { entryId: { $in: auditIds } }, owedNotes: { messageId: { $in: noteIds } } };
    },
  };
}

// An approval's change of status (or of fields within one), as the store's compare-and-set writes it: the approval
// as the change leaves it, the update, and the audit entry and conversation note the change owes.
import type { Approval, ApprovalStatus, SkillOutcome } from '@lumibase/shared';
import { Types } from 'mongoose';
import type { NewAuditEntry } from './audit.store.js';
import { encodeJson } from '../json-codec.js';
import { type ChangeableField, stepsOf, storedField } from './approval-document.js';

export interface ApprovalTransition {
  from: ApprovalStatus;
  to: ApprovalStatus;
  at: Date;
  set?: Partial<Pick<Approval, ChangeableField>>;
  unset?: ChangeableField[];
  /** `pending → executing` starts an execution: attempts + 1 in the same atomic write. */
  incrementAttempts?: boolean;
  /** `executing → pending` when the execution could not even be queued: it never started, attempts - 1. */
  revertAttempt?: boolean;
  /** Only if the approval is still at this revision (the one its decider saw); else null, as for a lost race. */
  revision?: number;
  /** What the change owes besides its event, given the approval as the change leaves it. */
  owes?: (next: Approval) => ApprovalOwes;
}

/** Audit entries (in order) and a conversation note, written with the status change and materialised by the relay. */
export interface ApprovalOwes {
  audit?: NewAuditEntry | NewAuditEntry[];
  note?: { conversationId: string; content: string; results: SkillOutcome[]; createdAt: string };
}

/** The approval as `transition` leaves it: what the stored document will read once the write lands. */
export function applyTransition(approval: Approval, transition: ApprovalTransition): Approval {
  const next: Approval = { ...approval, status: transition.to, updatedAt: transition.at.toISOString() };
  for (const field of transition.unset ?? []) delete next[field];
  for (const [field, value] of Object.entries(transition.set ?? {})) {
    if (value !== undefined) Object.assign(next, { [field]: value });
  }
  if (transition.incrementAttempts) next.attempts += 1;
  if (transition.revertAttempt) next.attempts -= 1;
  next.steps = stepsOf(next);
  return next;
}

/** The update a transition makes besides its revision and what it owes: status, fields set and unset, attempts. */
export function transitionUpdate(transition: ApprovalTransition): Record<string, unknown> {
  const $set: Record<string, unknown> = { status: transition.to, updatedAt: transition.at };
  for (const [field, value] of Object.entries(transition.set ?? {}) as [ChangeableField, unknown][]) {
    if (value === undefined) continue;
    const [path, stored] = storedField(field, value);
    $set[path] = stored;
  }
  // Leaving pending ends its identity as a request, and so does an edit (it asks for something else now): every edit
  // sets `arguments` (a plan's edit too, docs/API.md "Runs and plans"); a refreshed impact sets a plan's `steps` and stays
  // the same request.
  const set = (transition.set ?? {}) as Record<string, unknown>;
  const rekeyed = transition.to !== 'pending' || set.arguments !== undefined;
  const $unset: Record<string, ''> = rekeyed ? { pendingKey: '' } : {};
  for (const field of transition.unset ?? []) {
    const [path] = storedField(field, null);
    if (!(path in $set)) $unset[path] = '';
  }
  const update: Record<string, unknown> = { $set };
  if (Object.keys($unset).length > 0) update.$unset = $unset;
  if (transition.incrementAttempts) update.$inc = { attempts: 1 };
  if (transition.revertAttempt) update.$inc = { attempts: -1 };
  return update;
}

/** The owed entries as stored: each with the id it will have, so that it can land only once. */
export function owedWork(owes: ApprovalOwes | undefined): Record<string, unknown> {
  const work: Record<string, unknown> = {};
  const audit = owes?.audit === undefined ? [] : [owes.audit].flat();
  if (audit.length > 0) {
    const entries = audit.map(({ detail, createdAt, ...rest }) => ({
      entryId: new Types.ObjectId(),
      ...rest,
      ...(detail === undefined ? {} : { detailJson: encodeJson(detail) }),
      createdAt: new Date(createdAt),
    }));
    work.owedAudit = entries.length === 1 ? entries[0] : { $each: entries };
  }
  if (owes?.note) {
    const { results, ...note } = owes.note;
    work.owedNotes = { messageId: new Types.ObjectId(), ...note, resultsJson: encodeJson(results), createdAt: new Date(note.createdAt) };
  }
  return work;
}

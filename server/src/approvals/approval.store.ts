// ai_approvals for one site: insert, read, list and compare-and-set status transitions, each owing its site
// event, and its audit entry and conversation note, in the same document write (approval-operations.ts says which).
import { isDeepStrictEqual } from 'node:util';
import {
  actorRefOf,
  type Approval,
  type ApprovalStatus,
  type ApprovalStep,
  PLAN_SKILL_NAME,
  type StepStatus,
  canTransition,
  type ReadBefore,
  type SkillOutcome,
} from '@lumibase/shared';
import { Types } from 'mongoose';
import { type OutboxRelay, type OwingDocument, owe } from '../store/outbox.js';
import type { AiModels, ApprovalDocument } from '../store/ai/ai-models.js';
import type { NewAuditEntry } from '../store/ai/audit.store.js';
import { decodeJson, encodeJson } from '../store/json-codec.js';
import { parseObjectId, toIso } from '../store/object-id.js';
import { SiteScopedStore } from '../store/site-scoped.js';
import { isDuplicateKeyError } from '../store/duplicate-key.js';
import { pendingKeyOf } from './pending-key.js';

export const APPROVAL_LIST_LIMIT = 100;
const MAX_TRANSITION_ATTEMPTS = 20;

/** The approval as `transition` leaves it: what the stored document will read once the write lands. */
function applyTransition(approval: Approval, transition: ApprovalTransition): Approval {
  const next: Approval = { ...approval, status: transition.to, updatedAt: transition.at.toISOString() };
  for (const field of transition.unset ?? []) delete next[field];
  for (const [field, value] of Object.entries(transition.set ?? {})) {
    if (value !== undefined) (next as unknown as Record<string, unknown>)[field] = value;
  }
  if (transition.incrementAttempts) next.attempts += 1;
  if (transition.revertAttempt) next.attempts -= 1;
  next.steps = stepsOf(next);
  return next;
}

/** `steps` may be left out for one step (taken from skillName, arguments, target and impact); `id` may be chosen (a plan's id is told to the model before it is stored). */
export type NewApproval = Omit<Approval, 'id' | 'siteId' | 'revision' | 'steps'> & { steps?: ApprovalStep[]; id?: string };

/**
 * The steps of an approval: a plan's are stored (stepsJson); a single step is the approval's own
 * skillName, arguments, target and impact, its progress read from the approval's status.
 */
export function stepsOf(
  approval: Pick<Approval, 'skillName' | 'arguments' | 'target' | 'impact' | 'status' | 'result' | 'lastError'> & {
    steps?: ApprovalStep[] | undefined;
  },
): ApprovalStep[] {
  if (approval.steps && approval.steps.length > 1) return approval.steps;
  const status: StepStatus =
    approval.status === 'approved' ? 'done' : approval.status === 'executing' ? 'running' : approval.lastError ? 'failed' : 'planned';
  return [
    {
      skillName: approval.skillName,
      arguments: approval.arguments,
      ...(approval.target ? { target: approval.target } : {}),
      ...(approval.impact ? { impact: approval.impact } : {}),
      status,
      ...(approval.status === 'approved' && approval.result !== undefined ? { result: approval.result } : {}),
      ...(approval.lastError && approval.status !== 'approved' ? { error: approval.lastError } : {}),
    },
  ];
}

/** Approvals stored before expiry existed expire this long after their creation. */
const LEGACY_TTL_MS = 259_200_000;

type ChangeableField =
  | 'decidedBy'
  | 'decidedAt'
  | 'reason'
  | 'result'
  | 'lastError'
  | 'arguments'
  | 'target'
  | 'impact'
  | 'originalArguments'
  | 'editedBy'
  | 'steps'
  | 'skillName'
  | 'originalSteps';

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

/** An audit entry and a conversation note, written with the status change and materialised by the relay. */
export interface ApprovalOwes {
  audit?: NewAuditEntry;
  note?: { conversationId: string; content: string; results: SkillOutcome[]; createdAt: string };
}

/** What the harness and the decision service need; the mongoose store below is the real one. */
export interface ApprovalRepository {
  readonly siteId: string;
  insert(approval: NewApproval): Promise<Approval>;
  /** insert, unless an identical request is pending: then that one (atomically; see ApprovalStore). */
  insertUnlessPending(approval: NewApproval): Promise<{ approval: Approval; created: boolean }>;
  get(id: string): Promise<Approval | null>;
  list(options?: { status?: ApprovalStatus; limit?: number }): Promise<Approval[]>;
  /** A pending approval for the same skill with deep-equal arguments (key order aside), if there is one. */
  findPendingIdentical(skillName: string, args: Record<string, unknown>): Promise<Approval | null>;
  /** A pending plan whose steps are the same calls (skill and deep-equal arguments, in order), if there is one. */
  findPendingIdenticalPlan(calls: readonly { skillName: string; arguments: Record<string, unknown> }[]): Promise<Approval | null>;
  count(options?: { status?: ApprovalStatus }): Promise<number>;
  /** Only approval-operations.ts calls this: each named operation is one transition with what it owes. */
  transition(id: string, transition: ApprovalTransition): Promise<Approval | null>;
}

function toApproval(document: ApprovalDocument): Approval {
  const approval: Approval = {
    id: document._id.toHexString(),
    siteId: document.siteId.toString(),
    steps: [],
    skillName: document.skillName,
    arguments: decodeJson(document.argumentsJson) as Record<string, unknown>,
    context: { message: document.context.message ?? '' },
    status: document.status,
    requestedBy: actorRefOf(document.requestedBy),
    attempts: document.attempts,
    revision: document.revision,
    expiresAt: toIso(document.expiresAt ?? new Date(document.createdAt.getTime() + LEGACY_TTL_MS)),
    createdAt: toIso(document.createdAt),
    updatedAt: toIso(document.updatedAt),
  };
  if (document.context.conversationId != null) approval.context.conversationId = document.context.conversationId;
  if (document.context.readBeforeJson != null) approval.context.readBefore = decodeJson(document.context.readBeforeJson) as ReadBefore[];
  if (document.context.via === 'mcp') approval.context.via = 'mcp';
  if (document.context.client != null) approval.context.client = document.context.client;
  if (document.decidedBy != null) approval.decidedBy = actorRefOf(document.decidedBy);
  if (document.decidedAt != null) approval.decidedAt = toIso(document.decidedAt);
  if (document.reason != null) approval.reason = document.reason;
  if (document.resultJson != null) approval.result = decodeJson(document.resultJson);
  if (document.lastError != null) approval.lastError = document.lastError;
  if (document.targetJson != null) approval.target = decodeJson(document.targetJson) as Approval['target'];
  if (document.impactJson != null) approval.impact = decodeJson(document.impactJson) as Approval['impact'];
  if (document.originalArgumentsJson != null)
    approval.originalArguments = decodeJson(document.originalArgumentsJson) as Record<string, unknown>;
  if (document.originalStepsJson != null) approval.originalSteps = decodeJson(document.originalStepsJson) as ApprovalStep[];
  if (document.editedBy != null) approval.editedBy = actorRefOf(document.editedBy);
  const stored = document.stepsJson == null ? undefined : (decodeJson(document.stepsJson) as ApprovalStep[]);
  approval.steps = stepsOf({ ...approval, ...(stored ? { steps: stored } : {}) });
  return approval;
}

/** Field name in the document for each changeable approval field, and how its value is stored. */
const JSON_FIELDS: Partial<Record<ChangeableField, string>> = {
  result: 'resultJson',
  arguments: 'argumentsJson',
  target: 'targetJson',
  impact: 'impactJson',
  originalArguments: 'originalArgumentsJson',
  steps: 'stepsJson',
  originalSteps: 'originalStepsJson',
};

function storedField(field: ChangeableField, value: unknown): [string, unknown] {
  const path = JSON_FIELDS[field];
  if (path) return [path, encodeJson(value)];
  return [field, field === 'decidedAt' && typeof value === 'string' ? new Date(value) : value];
}

/** The owed entries as stored: each with the id it will have, so that it can land only once. */
function owedWork(owes: ApprovalOwes | undefined): Record<string, unknown> {
  const work: Record<string, unknown> = {};
  if (owes?.audit) {
    const { detail, createdAt, ...rest } = owes.audit;
    work.owedAudit = {
      entryId: new Types.ObjectId(),
      ...rest,
      ...(detail === undefined ? {} : { detailJson: encodeJson(detail) }),
      createdAt: new Date(createdAt),
    };
  }
  if (owes?.note) {
    const { results, ...note } = owes.note;
    work.owedNotes = { messageId: new Types.ObjectId(), ...note, resultsJson: encodeJson(results), createdAt: new Date(note.createdAt) };
  }
  return work;
}

export class ApprovalStore extends SiteScopedStore implements ApprovalRepository {
  constructor(
    private readonly models: Pick<AiModels, 'approvals'>,
    siteId: string,
    private readonly relay: OutboxRelay,
  ) {
    super(siteId);
  }

  /** Inserts the approval together with the `approval-created` event it owes. */
  insert(approval: NewApproval): Promise<Approval> {
    return this.insertDocument(approval);
  }

  /**
   * Inserts a pending approval unless one with the same steps is pending in the site (created by this method):
   * then answers that one. The lookup and the insert are one step (a unique index on the pending key), so two
   * identical requests at the same instant make one approval.
   */
  async insertUnlessPending(approval: NewApproval): Promise<{ approval: Approval; created: boolean }> {
    const pendingKey = pendingKeyOf(approval);
    for (let attempt = 0; ; attempt++) {
      try {
        return { approval: await this.insertDocument(approval, pendingKey), created: true };
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        const existing = await this.models.approvals.findOne(this.scoped({ pendingKey })).lean<ApprovalDocument>();
        if (existing) return { approval: toApproval(existing), created: false };
        // It was decided in between: its key is gone, the insert may go ahead.
        if (attempt >= 2) throw error;
      }
    }
  }

  private async insertDocument(approval: NewApproval, pendingKey?: string): Promise<Approval> {
    const {
      arguments: args,
      result,
      target,
      impact,
      originalArguments,
      originalSteps,
      context,
      createdAt,
      updatedAt,
      expiresAt,
      decidedAt,
      steps,
      id,
      ...rest
    } = approval;
    const { readBefore, ...storedContext } = context;
    const _id = id === undefined ? new Types.ObjectId() : new Types.ObjectId(id);
    const { id: _chosen, ...shown } = approval;
    const inserted: Approval = { ...shown, id: _id.toHexString(), siteId: this.siteId, revision: 1, steps: stepsOf(approval) };
    const document = this.owned({
      _id,
      ...rest,
      createdAt: new Date(createdAt),
      updatedAt: new Date(updatedAt),
      expiresAt: new Date(expiresAt),
      ...(decidedAt === undefined ? {} : { decidedAt: new Date(decidedAt) }),
      context: readBefore === undefined ? storedContext : { ...storedContext, readBeforeJson: encodeJson(readBefore) },
      argumentsJson: encodeJson(args),
      ...(result === undefined ? {} : { resultJson: encodeJson(result) }),
      ...(target === undefined ? {} : { targetJson: encodeJson(target) }),
      ...(impact === undefined ? {} : { impactJson: encodeJson(impact) }),
      ...(originalArguments === undefined ? {} : { originalArgumentsJson: encodeJson(originalArguments) }),
      ...(originalSteps === undefined ? {} : { originalStepsJson: encodeJson(originalSteps) }),
      ...(steps !== undefined && steps.length > 1 ? { stepsJson: encodeJson(steps) } : {}),
      revision: 1,
      ...(pendingKey === undefined ? {} : { pendingKey }),
      outbox: [owe({ name: 'approval-created', body: { approval: inserted } })],
    });
    await this.models.approvals.insertMany([document], { lean: true });
    await this.relay.relay(this.models.approvals, _id, document);
    return inserted;
  }

  /** Absent when the id is malformed, unknown, or another site's: callers cannot tell which. */
  async get(id: string): Promise<Approval | null> {
    const _id = parseObjectId(id);
    if (!_id) return null;
    const document = await this.models.approvals.findOne(this.scoped({ _id })).lean<ApprovalDocument>();
    return document ? toApproval(document) : null;
  }

  /** Newest first (ties by id), at most 100. */
  async list({ status = 'pending', limit = APPROVAL_LIST_LIMIT }: { status?: ApprovalStatus; limit?: number } = {}): Promise<Approval[]> {
    const documents = await this.models.approvals
      .find(this.scoped({ status }))
      .sort({ createdAt: -1, _id: -1 })
      .limit(Math.min(Math.max(limit, 1), APPROVAL_LIST_LIMIT))
      .lean<ApprovalDocument[]>();
    return documents.map(toApproval);
  }

  async findPendingIdentical(skillName: string, args: Record<string, unknown>): Promise<Approval | null> {
    // Few approvals of one skill are pending in a site at once; equality is checked on the decoded arguments.
    const documents = await this.models.approvals
      .find(this.scoped({ status: 'pending', skillName }))
      .sort({ createdAt: 1, _id: 1 })
      .limit(APPROVAL_LIST_LIMIT)
      .lean<ApprovalDocument[]>();
    const same = documents.find((document) => isDeepStrictEqual(decodeJson(document.argumentsJson), args));
    return same ? toApproval(same) : null;
  }

  async findPendingIdenticalPlan(calls: readonly { skillName: string; arguments: Record<string, unknown> }[]): Promise<Approval | null> {
    const documents = await this.models.approvals
      .find(this.scoped({ status: 'pending', skillName: PLAN_SKILL_NAME }))
      .sort({ createdAt: 1, _id: 1 })
      .limit(APPROVAL_LIST_LIMIT)
      .lean<ApprovalDocument[]>();
    const same = documents.find((document) => {
      const steps = document.stepsJson == null ? [] : (decodeJson(document.stepsJson) as ApprovalStep[]);
      return (
        steps.length === calls.length &&
        steps.every(
          (step, index) => step.skillName === calls[index]!.skillName && isDeepStrictEqual(step.arguments, calls[index]!.arguments),
        )
      );
    });
    return same ? toApproval(same) : null;
  }

  count({ status = 'pending' }: { status?: ApprovalStatus } = {}): Promise<number> {
    return this.models.approvals.countDocuments(this.scoped({ status }));
  }

  /**
   * Compare-and-set: applies the change only if the approval is in this site and in `from`, in
   * one atomic findAndModify, so of two concurrent transitions from the same state one wins and
   * the other gets null. The same write records the `approval-decided` event it owes, with
   * the approval as it will be: computed from the revision read, which the write requires unchanged;
   * so do the audit entry and conversation note it owes. A move the lifecycle table does not allow
   * (shared/src/approvals/lifecycle.ts) is refused; `from === to` changes fields within a status.
   */
  async transition(id: string, transition: ApprovalTransition): Promise<Approval | null> {
    const _id = parseObjectId(id);
    if (!_id) return null;
    if (transition.from !== transition.to && !canTransition(transition.from, transition.to)) {
      throw new Error(`an approval cannot move from ${transition.from} to ${transition.to}`);
    }
    for (let attempt = 0; attempt < MAX_TRANSITION_ATTEMPTS; attempt++) {
      const current = await this.models.approvals.findOne(this.scoped({ _id, status: transition.from })).lean<ApprovalDocument>();
      if (!current) return null;
      if (transition.revision !== undefined && current.revision !== transition.revision) return null;
      const next = applyTransition(toApproval(current), transition);
      next.revision = current.revision + 1;
      const update = this.transitionUpdate(transition);
      update.$inc = { ...(update.$inc as object | undefined), revision: 1 };
      update.$push = { outbox: owe({ name: 'approval-decided', body: { approval: next } }), ...owedWork(transition.owes?.(next)) };
      const document = await this.models.approvals
        .findOneAndUpdate(this.scoped({ _id, status: transition.from, revision: current.revision }), update, { new: true })
        .lean<ApprovalDocument>();
      if (document) {
        // The schema's inferred type is the hydrated one; a lean document holds plain outbox entries.
        await this.relay.relay(this.models.approvals, _id, document as unknown as OwingDocument);
        return toApproval(document);
      }
      // Another transition from the same state won, or something else moved the revision: read again.
    }
    return null;
  }

  private transitionUpdate(transition: ApprovalTransition): Record<string, unknown> {
    const $set: Record<string, unknown> = { status: transition.to, updatedAt: transition.at };
    for (const [field, value] of Object.entries(transition.set ?? {}) as [ChangeableField, unknown][]) {
      if (value === undefined) continue;
      const [path, stored] = storedField(field, value);
      $set[path] = stored;
    }
    // Leaving pending ends its identity as a request, and so does an edit (it asks for something else now);
    // a plans edit sets `steps` (API.md "Runs and plans").
    const set = (transition.set ?? {}) as Record<string, unknown>;
    const rekeyed = transition.to !== 'pending' || set.arguments !== undefined || set.steps !== undefined;
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

  /**
   * Purging a trashed field or collection: the values its approvals' impacts previewed go (the rest
   * of each impact stays). Matches on the target's collection id, and its field when one is given.
   */
  async forgetValues(collectionId: string, field?: string): Promise<void> {
    const documents = await this.models.approvals
      .find(this.scoped({ impactJson: { $exists: true } }), { _id: 1, targetJson: 1, argumentsJson: 1, impactJson: 1 })
      .lean<Pick<ApprovalDocument, '_id' | 'targetJson' | 'argumentsJson' | 'impactJson'>[]>();
    for (const document of documents) {
      const target = document.targetJson == null ? undefined : (decodeJson(document.targetJson) as Approval['target']);
      if (target?.collectionId !== collectionId) continue;
      // A field target names its field only while it exists: the arguments name it always.
      const named = target.field ?? (decodeJson(document.argumentsJson) as Record<string, unknown>).field;
      if (field !== undefined && named !== field) continue;
      const impact = decodeJson(document.impactJson as string) as NonNullable<Approval['impact']>;
      if (impact.values === undefined) continue;
      const { values: _values, ...kept } = impact;
      await this.models.approvals.updateOne(this.scoped({ _id: document._id }), { $set: { impactJson: encodeJson(kept) } });
    }
  }
}

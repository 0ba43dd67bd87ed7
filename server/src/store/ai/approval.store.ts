// ai_approvals for one site: insert, read, list and compare-and-set status transitions, each owing its site
// event, and its audit entry and conversation note, in the same document write (approval-operations.ts says which).
import { isDeepStrictEqual } from 'node:util';
import { type Approval, type ApprovalStatus, type ApprovalStep, PLAN_SKILL_NAME, canTransition } from '@lumibase/shared';
import { Types } from 'mongoose';
import { type OutboxRelay, owe } from '../outbox.js';
import type { AiModels } from './ai-models.js';
import { decodeJson, encodeJson } from '../json-codec.js';
import { parseObjectId } from '../object-id.js';
import { SiteScopedStore } from '../site-scoped.js';
import { isDuplicateKeyError } from '../duplicate-key.js';
import { type StoredApproval, stepsOf, toApproval } from './approval-document.js';
import { type ApprovalTransition, applyTransition, owedWork, transitionUpdate } from './approval-transition.js';
import { pendingKeyOf } from './pending-key.js';

export const APPROVAL_LIST_LIMIT = 100;
const MAX_TRANSITION_ATTEMPTS = 20;

/** A pending approval as the target watch first looks at it. */
export interface PendingTarget {
  id: string;
  target: NonNullable<Approval['target']>;
}

/** `steps` may be left out for one step (taken from skillName, arguments, target and impact); `id` may be chosen (a plan's id is told to the model before it is stored). */
export type NewApproval = Omit<Approval, 'id' | 'siteId' | 'revision' | 'steps'> & { steps?: ApprovalStep[]; id?: string };

/** What the harness and the decision service need; the mongoose store below is the real one. */
export interface ApprovalRepository {
  readonly siteId: string;
  insert(approval: NewApproval): Promise<Approval>;
  /** insert, unless an identical request is pending: then that one (atomically; see ApprovalStore). */
  insertUnlessPending(approval: NewApproval): Promise<{ approval: Approval; created: boolean }>;
  get(id: string): Promise<Approval | null>;
  list(options?: { status?: ApprovalStatus; limit?: number }): Promise<Approval[]>;
  /** Every pending approval that has a target, as its id and target only (all of them: `list` stops at 100). */
  pendingTargets(): Promise<PendingTarget[]>;
  /** `list` with the count of all approvals in that status, counted only when there are more than it lists. */
  listWithTotal(options?: { status?: ApprovalStatus }): Promise<{ approvals: Approval[]; total: number }>;
  /** A pending approval for the same skill with deep-equal arguments (key order aside), if there is one. */
  findPendingIdentical(skillName: string, args: Record<string, unknown>): Promise<Approval | null>;
  /** A pending plan whose steps are the same calls (skill and deep-equal arguments, in order), if there is one. */
  findPendingIdenticalPlan(calls: readonly { skillName: string; arguments: Record<string, unknown> }[]): Promise<Approval | null>;
  count(options?: { status?: ApprovalStatus }): Promise<number>;
  /**
   * Only approval-operations.ts calls this: each named operation is one transition with what it owes. `known`: the
   * approval as its caller just read it from the store, unchanged since; the compare-and-set is tried on it first.
   */
  transition(id: string, transition: ApprovalTransition, known?: Approval): Promise<Approval | null>;
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
        const existing = await this.models.approvals.findOne(this.scoped({ pendingKey })).lean<StoredApproval>();
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
    const document = await this.models.approvals.findOne(this.scoped({ _id })).lean<StoredApproval>();
    return document ? toApproval(document) : null;
  }

  /** Newest first (ties by id), at most 100. */
  async list({ status = 'pending', limit = APPROVAL_LIST_LIMIT }: { status?: ApprovalStatus; limit?: number } = {}): Promise<Approval[]> {
    const documents = await this.newestFirst(status, Math.min(Math.max(limit, 1), APPROVAL_LIST_LIMIT));
    return documents.map(toApproval);
  }

  async pendingTargets(): Promise<PendingTarget[]> {
    const documents = await this.models.approvals
      .find(this.scoped({ status: 'pending', targetJson: { $ne: null } }), { _id: 1, targetJson: 1 })
      .lean<Pick<StoredApproval, '_id' | 'targetJson'>[]>();
    return documents.map((document) => ({
      id: document._id.toHexString(),
      target: decodeJson(document.targetJson as string) as PendingTarget['target'],
    }));
  }

  /**
   * `list` (at most 100) and how many of the site's approvals are in that status. One read when they all fit in the
   * list: it asks for one document more than it lists, to know whether there are more; only then does it count them.
   */
  async listWithTotal({ status = 'pending' }: { status?: ApprovalStatus } = {}): Promise<{ approvals: Approval[]; total: number }> {
    const documents = await this.newestFirst(status, APPROVAL_LIST_LIMIT + 1);
    const approvals = documents.slice(0, APPROVAL_LIST_LIMIT).map(toApproval);
    return { approvals, total: documents.length > APPROVAL_LIST_LIMIT ? await this.count({ status }) : documents.length };
  }

  private newestFirst(status: ApprovalStatus, limit: number): Promise<StoredApproval[]> {
    return this.models.approvals
      .find(this.scoped({ status }))
      .sort({ createdAt: -1, _id: -1 })
      .limit(limit)
      .lean<StoredApproval[]>()
      .exec();
  }

  async findPendingIdentical(skillName: string, args: Record<string, unknown>): Promise<Approval | null> {
    // Few approvals of one skill are pending in a site at once; equality is checked on the decoded arguments.
    const documents = await this.models.approvals
      .find(this.scoped({ status: 'pending', skillName }))
      .sort({ createdAt: 1, _id: 1 })
      .limit(APPROVAL_LIST_LIMIT)
      .lean<StoredApproval[]>();
    const same = documents.find((document) => isDeepStrictEqual(decodeJson(document.argumentsJson), args));
    return same ? toApproval(same) : null;
  }

  async findPendingIdenticalPlan(calls: readonly { skillName: string; arguments: Record<string, unknown> }[]): Promise<Approval | null> {
    const documents = await this.models.approvals
      .find(this.scoped({ status: 'pending', skillName: PLAN_SKILL_NAME }))
      .sort({ createdAt: 1, _id: 1 })
      .limit(APPROVAL_LIST_LIMIT)
      .lean<StoredApproval[]>();
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
  async transition(id: string, transition: ApprovalTransition, known?: Approval): Promise<Approval | null> {
    const _id = parseObjectId(id);
    if (!_id) return null;
    if (transition.from !== transition.to && !canTransition(transition.from, transition.to)) {
      throw new Error(`an approval cannot move from ${transition.from} to ${transition.to}`);
    }
    // The caller's own fresh read saves reading it again: the compare-and-set requires its revision, and every
    // change of what an approval shows moves the revision, so if the write lands, `next` was computed from the
    // stored approval. If it does not, the loop reads it, as without `known`.
    const fresh =
      known?.id === id && known.status === transition.from && (transition.revision ?? known.revision) === known.revision
        ? known
        : undefined;
    for (let attempt = 0; attempt < MAX_TRANSITION_ATTEMPTS; attempt++) {
      const approval = attempt === 0 && fresh ? fresh : await this.inStatus(_id, transition.from);
      if (!approval) return null;
      if (transition.revision !== undefined && approval.revision !== transition.revision) return null;
      const next = applyTransition(approval, transition);
      next.revision = approval.revision + 1;
      const update = transitionUpdate(transition);
      update.$inc = { ...(update.$inc as object | undefined), revision: 1 };
      update.$push = { outbox: owe({ name: 'approval-decided', body: { approval: next } }), ...owedWork(transition.owes?.(next)) };
      const document = await this.models.approvals
        .findOneAndUpdate(this.scoped({ _id, status: transition.from, revision: approval.revision }), update, { new: true })
        .lean<StoredApproval>();
      if (document) {
        // Answered once its event has its seq (what the caller queues or appends next comes after it).
        await this.relay.relay(this.models.approvals, _id, document, { answerWhen: 'events-inserted' });
        return toApproval(document);
      }
      // Another transition from the same state won, or something else moved the revision: read again.
    }
    return null;
  }

  /** The approval while it is in `status`, or null. */
  private async inStatus(_id: Types.ObjectId, status: ApprovalStatus): Promise<Approval | null> {
    const document = await this.models.approvals.findOne(this.scoped({ _id, status })).lean<StoredApproval>();
    return document ? toApproval(document) : null;
  }

  /**
   * Purging a trashed field or collection: the values its approvals' impacts previewed go (the rest
   * of each impact stays). Matches on the target's collection id, and its field when one is given.
   */
  async forgetValues(collectionId: string, field?: string): Promise<void> {
    const documents = await this.models.approvals
      .find(this.scoped({ impactJson: { $exists: true } }), { _id: 1, targetJson: 1, argumentsJson: 1, impactJson: 1 })
      .lean<Pick<StoredApproval, '_id' | 'targetJson' | 'argumentsJson' | 'impactJson'>[]>();
    for (const document of documents) {
      const target = document.targetJson == null ? undefined : (decodeJson(document.targetJson) as Approval['target']);
      if (target?.collectionId !== collectionId) continue;
      // A field target names its field only while it exists: the arguments name it always.
      const named = target.field ?? (decodeJson(document.argumentsJson) as Record<string, unknown>).field;
      if (field !== undefined && named !== field) continue;
      const impact = decodeJson(document.impactJson as string) as NonNullable<Approval['impact']>;
      if (impact.values === undefined) continue;
      const { values: _values, ...kept } = impact;
      // A new revision: what the approval shows changed (and a transition computed from the old one must not land).
      await this.models.approvals.updateOne(this.scoped({ _id: document._id }), {
        $set: { impactJson: encodeJson(kept) },
        $inc: { revision: 1 },
      });
    }
  }
}

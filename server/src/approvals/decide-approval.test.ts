// Property 7 of docs/PROPERTIES.md and the decision rules, on the real harness, decider and stores over the wire.
import fc from 'fast-check';
import { CAPABILITIES, ConflictError, ForbiddenError, NotFoundError, WILDCARD } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshSiteId, openTestDatabase, type TestDatabase } from '../../test-support/ai-test-database.js';
import { AISecureHarness, type HarnessActor } from '../gate/ai-secure-harness.js';
import { ApprovalJobRunner } from './approval-job-runner.js';
import { NO_TARGETS } from '../skills/approval-targets.js';
import { inProcessExecutor } from '../../test-support/in-process-executor.js';
import { ApprovalDecider, type Decider } from './decide-approval.js';
import { DANGEROUS_SKILLS, validCallArbitrary } from '../../test-support/harness-arbitraries.js';
import { type RecordingExecutors, recordingExecutors } from '../../test-support/recording-executors.js';

let database: TestDatabase;
let recorder: RecordingExecutors;
let harness: AISecureHarness;
let decider: ApprovalDecider;
const reportError = vi.fn();

beforeAll(async () => {
  database = await openTestDatabase();
  recorder = recordingExecutors();
  harness = new AISecureHarness({ targets: NO_TARGETS, stores: database.stores, executors: recorder.executors });
  // The worker's job runner, called directly: what the queue does, without Redis in between.
  const runner = new ApprovalJobRunner({ stores: database.stores, executors: recorder.executors, reportError, targets: NO_TARGETS });
  decider = new ApprovalDecider({ targets: NO_TARGETS, stores: database.stores, executor: inProcessExecutor(database.stores, runner) });
});
afterAll(() => database?.close());

const requester: HarnessActor = { id: 'u_req', name: 'Requester', capabilities: [...CAPABILITIES], isSuperadmin: false };
const admin: Decider = { id: 'u_admin', name: 'Admin', capabilities: [...CAPABILITIES], isSuperadmin: false };
const otherAdmin: Decider = { id: 'u_admin2', name: 'Other admin', capabilities: [...CAPABILITIES], isSuperadmin: false };

/** A pending approval made the real way: a dangerous tool call through the harness. */
async function requestApproval(name: string, args: Record<string, unknown>, siteId = freshSiteId()) {
  const outcome = await harness.execute({ siteId, actor: requester, message: `please run ${name}` }, { name, arguments: args });
  if (outcome.status !== 'pending_approval') throw new Error(`expected a pending approval, got ${outcome.status}`);
  const approval = await database.stores.forSite(siteId).approvals.get(outcome.approvalId);
  return { siteId, approval: approval! };
}

const auditActions = async (siteId: string) =>
  (await database.stores.forSite(siteId).audit.list({ limit: 100 })).map((entry) => entry.action).reverse();

describe('ApprovalDecider.decideApproval', () => {
  it('runs the executor once with the stored arguments; approved only on success, else pending with lastError', {
    timeout: 120_000,
  }, async () => {
    const outcomes = fc.oneof(
      fc.record({ ok: fc.constant(true as const), result: fc.jsonValue() }),
      fc.record({ ok: fc.constant(false as const), message: fc.string({ minLength: 1, maxLength: 80 }) }),
    );
    await fc.assert(
      fc.asyncProperty(validCallArbitrary(DANGEROUS_SKILLS), outcomes, async (call, execution) => {
        recorder.reset();
        const { siteId, approval } = await requestApproval(call.skill.name, call.arguments);
        recorder.behaviour = execution.ok ? { result: execution.result } : { error: new NotFoundError({ message: execution.message }) };

        const decided = await decider.decideApproval({ siteId, approvalId: approval.id, decision: 'approved', decider: admin });

        expect(recorder.calls).toHaveLength(1);
        expect(recorder.calls[0]!.args).toEqual(approval.arguments);
        expect(recorder.calls[0]!.context).toEqual({
          siteId,
          actor: { id: admin.id, name: admin.name },
          operationId: approval.id,
          // Where a skill hands the settling run its bookkeeping (the run-once ledger's completion); this one has none.
          deferred: [],
          via: 'approval',
          approvalId: approval.id,
        });
        const stored = await database.stores.forSite(siteId).approvals.get(approval.id);
        expect(stored).toEqual(decided);
        expect(decided.attempts).toBe(1);
        if (execution.ok) {
          expect(decided).toMatchObject({ status: 'approved', decidedBy: { id: admin.id, name: admin.name } });
          expect(decided.result).toEqual(execution.result);
          expect(decided).not.toHaveProperty('lastError');
          expect(await auditActions(siteId)).toEqual(['approval_requested', 'approved']);
        } else {
          expect(decided).toMatchObject({ status: 'pending', lastError: execution.message });
          expect(decided).not.toHaveProperty('decidedBy');
          expect(await auditActions(siteId)).toEqual(['approval_requested', 'execution_failed']);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('lets an admin retry a failed execution: attempts count, the arguments stay the stored ones', async () => {
    recorder.reset();
    const { siteId, approval } = await requestApproval('deleteCollection', { name: 'posts' });
    recorder.behaviour = { error: new ConflictError({ message: 'collection is busy' }) };
    const failed = await decider.decideApproval({ siteId, approvalId: approval.id, decision: 'approved', decider: admin });
    expect(failed).toMatchObject({ status: 'pending', lastError: 'collection is busy', attempts: 1 });
    recorder.behaviour = { result: { deleted: 'posts' } };
    const approved = await decider.decideApproval({ siteId, approvalId: approval.id, decision: 'approved', decider: otherAdmin });
    expect(approved).toMatchObject({ status: 'approved', attempts: 2, result: { deleted: 'posts' }, decidedBy: { id: otherAdmin.id } });
    expect(approved).not.toHaveProperty('lastError');
    expect(recorder.calls.map((call) => call.args)).toEqual([{ name: 'posts' }, { name: 'posts' }]);
    expect(await auditActions(siteId)).toEqual(['approval_requested', 'execution_failed', 'approved']);
  });

  it('reports an executor error that is not a DomainError generically, and hands it to reportError', async () => {
    recorder.reset();
    reportError.mockClear();
    const { siteId, approval } = await requestApproval('deleteUser', { userId: 'u9' });
    recorder.behaviour = { error: new Error('connection string mongodb://secret@host') };
    const decided = await decider.decideApproval({ siteId, approvalId: approval.id, decision: 'approved', decider: admin });
    expect(decided.lastError).toBe('“Remove a member” failed with an internal error');
    expect(reportError).toHaveBeenCalledTimes(1);
  });

  describe('when two admins decide at the same moment', () => {
    it('executes the skill once and answers the other with a conflict', async () => {
      recorder.reset();
      const { siteId, approval } = await requestApproval('deleteItem', { collection: 'posts', id: '6650f0c2a1b2c3d4e5f60718' });
      recorder.behaviour = { result: { deleted: true }, delayMs: 30 };
      const results = await Promise.allSettled([
        decider.decideApproval({ siteId, approvalId: approval.id, decision: 'approved', decider: admin }),
        decider.decideApproval({ siteId, approvalId: approval.id, decision: 'approved', decider: otherAdmin }),
      ]);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.find((result) => result.status === 'rejected');
      expect((rejected as PromiseRejectedResult).reason).toBeInstanceOf(ConflictError);
      expect(recorder.calls).toHaveLength(1);
      expect((await database.stores.forSite(siteId).approvals.get(approval.id))!.status).toBe('approved');
    });

    it('lets exactly one of an approval and a rejection win', async () => {
      recorder.reset();
      recorder.behaviour = { result: 'ok' };
      const { siteId, approval } = await requestApproval('createCollection', { name: 'pages' });
      const results = await Promise.allSettled([
        decider.decideApproval({ siteId, approvalId: approval.id, decision: 'rejected', reason: 'no', decider: otherAdmin }),
        decider.decideApproval({ siteId, approvalId: approval.id, decision: 'approved', decider: admin }),
      ]);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      const final = await database.stores.forSite(siteId).approvals.get(approval.id);
      expect(recorder.calls).toHaveLength(final!.status === 'approved' ? 1 : 0);
    });
  });

  describe('a rejection', () => {
    it('sets rejected with the reason, never executes, and audits it', async () => {
      recorder.reset();
      const { siteId, approval } = await requestApproval('deleteField', { collection: 'posts', field: 'body' });
      const rejected = await decider.decideApproval({
        siteId,
        approvalId: approval.id,
        decision: 'rejected',
        reason: 'keep it',
        decider: admin,
      });
      expect(rejected).toMatchObject({ status: 'rejected', reason: 'keep it', decidedBy: { id: admin.id, name: admin.name }, attempts: 0 });
      expect(recorder.calls).toHaveLength(0);
      expect(await auditActions(siteId)).toEqual(['approval_requested', 'rejected']);
    });

    it('is final: deciding again conflicts, and the skill never runs', async () => {
      recorder.reset();
      const { siteId, approval } = await requestApproval('deleteField', { collection: 'posts', field: 'body' });
      await decider.decideApproval({ siteId, approvalId: approval.id, decision: 'rejected', decider: admin });
      for (const decision of ['approved', 'rejected'] as const) {
        await expect(decider.decideApproval({ siteId, approvalId: approval.id, decision, decider: admin })).rejects.toBeInstanceOf(
          ConflictError,
        );
      }
      expect(recorder.calls).toHaveLength(0);
    });
  });

  it('conflicts on an approval that was already approved', async () => {
    recorder.reset();
    const { siteId, approval } = await requestApproval('deleteCollection', { name: 'old' });
    await decider.decideApproval({ siteId, approvalId: approval.id, decision: 'approved', decider: admin });
    await expect(decider.decideApproval({ siteId, approvalId: approval.id, decision: 'approved', decider: admin })).rejects.toBeInstanceOf(
      ConflictError,
    );
    expect(recorder.calls).toHaveLength(1);
  });

  describe('who may decide', () => {
    it('needs approvals:decide and every capability the skill requires', async () => {
      recorder.reset();
      const { siteId, approval } = await requestApproval('createCollection', { name: 'pages' });
      const withoutDecide: Decider = { ...admin, capabilities: CAPABILITIES.filter((capability) => capability !== 'approvals:decide') };
      const withoutSchemaWrite: Decider = { ...admin, capabilities: ['approvals:decide', 'schema:read', 'content:read', 'content:write'] };
      const wildcardNotSuperadmin: Decider = { ...admin, capabilities: [WILDCARD], isSuperadmin: false };
      for (const who of [withoutDecide, withoutSchemaWrite, wildcardNotSuperadmin]) {
        for (const decision of ['approved', 'rejected'] as const) {
          await expect(decider.decideApproval({ siteId, approvalId: approval.id, decision, decider: who })).rejects.toBeInstanceOf(
            ForbiddenError,
          );
        }
      }
      expect((await database.stores.forSite(siteId).approvals.get(approval.id))!.status).toBe('pending');
      const superadmin: Decider = { id: 'root', name: 'Root', capabilities: [WILDCARD], isSuperadmin: true };
      expect((await decider.decideApproval({ siteId, approvalId: approval.id, decision: 'approved', decider: superadmin })).status).toBe(
        'approved',
      );
    });

    it('answers the same Forbidden for another site’s approval, an unknown id and a malformed id', async () => {
      const { approval } = await requestApproval('deleteUser', { userId: 'u1' });
      const errors = [];
      for (const approvalId of [approval.id, '000000000000000000000000', 'not-an-id']) {
        const error = await decider
          .decideApproval({ siteId: freshSiteId(), approvalId, decision: 'approved', decider: admin })
          .catch((caught) => caught);
        expect(error).toBeInstanceOf(ForbiddenError);
        errors.push({ message: error.message, reason: error.reason });
      }
      expect(new Set(errors.map((error) => JSON.stringify(error))).size).toBe(1);
    });
  });

  it('expires an approval whose time ran out when someone decides it before the sweep: 409, expired/ttl, audited once', async () => {
    recorder.reset();
    const { siteId, approval } = await requestApproval('deleteCollection', { name: 'late' });
    const later = new ApprovalDecider({
      targets: NO_TARGETS,
      stores: database.stores,
      executor: { execute: async () => Promise.reject(new Error('must not run')) },
      clock: () => new Date(Date.parse(approval.expiresAt) + 1),
    });
    await expect(later.decideApproval({ siteId, approvalId: approval.id, decision: 'approved', decider: admin })).rejects.toBeInstanceOf(
      ConflictError,
    );
    await expect(later.decideApproval({ siteId, approvalId: approval.id, decision: 'rejected', decider: admin })).rejects.toBeInstanceOf(
      ConflictError,
    );
    expect(await database.stores.forSite(siteId).approvals.get(approval.id)).toMatchObject({
      status: 'expired',
      reason: 'ttl',
      revision: 2,
    });
    expect(recorder.calls).toHaveLength(0);
    expect(await auditActions(siteId)).toEqual(['approval_requested', 'expired']);
  });
});

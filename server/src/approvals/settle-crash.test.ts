// Issue 26 finding 1: a worker killed right after the write that settles an approval, and killed again on the
// job's next delivery (BullMQ then fails the job: maxStalledCount 1), must still leave exactly one audit entry
// of the execution, and one conversation note: both are owed by the settling write itself, and a fresh
// process's reconciler (or two relays at once) materialises them once. In-process, over the real stores.
import { CAPABILITIES } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { AISecureHarness, type HarnessActor } from '../gate/ai-secure-harness.js';
import { AiStores, type AiStoreFactory } from '../store/ai/ai-stores.js';
import { createEventLog } from '../store/event-log.js';
import { OutboxRelay } from '../store/outbox.js';
import { freshSiteId } from '../../test-support/ai-test-database.js';
import { type RecordingExecutors, recordingExecutors } from '../../test-support/recording-executors.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createTestStores, type TestStores } from '../../test-support/test-stores.js';
import { NO_TARGETS } from '../skills/approval-targets.js';
import { ApprovalJobRunner } from './approval-job-runner.js';
import { ApprovalDecider } from './decide-approval.js';
import { Reconciler } from './reconciler.js';
import type { SkillExecutionQueue } from './skill-execution.queue.js';

class ProcessKilled extends Error {}

const requester: HarnessActor = { id: 'u_req', name: 'Requester', capabilities: [...CAPABILITIES], isSuperadmin: false };
const admin = { id: 'u_admin', name: 'Admin', capabilities: [...CAPABILITIES], isSuperadmin: false };
const silent = createLogger({ level: 'silent' });

let database: TestDatabase;
let live: TestStores;
let recorder: RecordingExecutors;

beforeAll(async () => {
  database = await openTestDatabase('settle-crash');
  live = await createTestStores(database.connection);
  recorder = recordingExecutors();
});
afterAll(() => database?.close());

/** A relay as another process has it: its own connection, models, append queues and in-flight map. */
async function freshRelay(): Promise<OutboxRelay> {
  const connection = await database.connect();
  const eventLog = await createEventLog(connection);
  const relay = new OutboxRelay({ eventLog: eventLog.forSite, publish: () => {}, logger: silent });
  new AiStores(connection, relay);
  return relay;
}

/**
 * A worker process that dies right after its status write: the write lands, and whatever the process
 * would do next (relay what the write owes, append an audit entry or a message) never happens.
 */
function dyingWorker(): AiStoreFactory {
  const dies = () => Promise.reject(new ProcessKilled('SIGKILL'));
  const relay = new OutboxRelay({ eventLog: live.eventLog.forSite, publish: () => {}, logger: silent });
  relay.relay = dies;
  const stores = new AiStores(database.connection, relay);
  return {
    forSite(siteId) {
      const site = stores.forSite(siteId);
      return {
        ...site,
        audit: Object.assign(Object.create(site.audit), { append: dies, appendOnce: dies }),
        conversations: Object.assign(Object.create(site.conversations), { appendMessage: dies, appendMessageOnce: dies }),
      };
    },
  };
}

/** A delivery of the job to a worker that is killed: it either dies (ProcessKilled) or has nothing left to do. */
async function deliverAndKill(runner: ApprovalJobRunner, job: { siteId: string; approvalId: string; attempt: number }) {
  await runner.run(job, { settleTransient: true }).catch((error: unknown) => {
    if (!(error instanceof ProcessKilled)) throw error;
  });
}

describe('a worker killed between settling an approval and its audit entry, twice for the same job', () => {
  it('ends approved with one `approved` entry and one note, materialised once by later relays, and the chain verifies', async () => {
    recorder.reset();
    recorder.behaviour = { result: { deleted: 'posts' } };
    const siteId = freshSiteId();
    const site = live.aiStores.forSite(siteId);
    const conversation = await site.conversations.create({ userId: requester.id, title: 'Tidy up', at: new Date() });
    const harness = new AISecureHarness({ stores: live.aiStores, executors: recorder.executors, targets: NO_TARGETS });
    const outcome = await harness.execute(
      { siteId, actor: requester, message: 'delete posts', conversationId: conversation.id },
      { name: 'deleteCollection', arguments: { name: 'posts' } },
    );
    if (outcome.status !== 'pending_approval') throw new Error(`expected a pending approval, got ${outcome.status}`);
    const approvalId = outcome.approvalId;

    // Approved: the job is queued (the API does not wait for it here).
    const decider = new ApprovalDecider({
      targets: NO_TARGETS,
      stores: live.aiStores,
      executor: { execute: async (approval) => approval },
    });
    await decider.decideApproval({ siteId, approvalId, decision: 'approved', decider: admin });

    const runner = new ApprovalJobRunner({ stores: dyingWorker(), executors: recorder.executors, targets: NO_TARGETS });
    const job = { siteId, approvalId, attempt: 1 };
    await deliverAndKill(runner, job); // runs the skill, settles, dies
    expect(await site.approvals.get(approvalId)).toMatchObject({ status: 'approved', attempts: 1 });
    await deliverAndKill(runner, job); // delivered again (stalled once), dies again: BullMQ fails the job for good

    // A fresh process: its reconciler's pass, then two relays at once and another pass, as several processes run them.
    const queue = {} as SkillExecutionQueue; // nothing is left executing, so the reconciler queues nothing
    const reconciler = new Reconciler({ relay: await freshRelay(), approvals: live.aiStores.models.approvals, queue, logger: silent });
    await reconciler.reconcile();
    const [one, other] = [await freshRelay(), await freshRelay()];
    await Promise.all([one.relayAll(), other.relayAll(), reconciler.reconcile()]);

    expect(recorder.calls).toHaveLength(1);
    expect(await site.approvals.get(approvalId)).toMatchObject({ status: 'approved', attempts: 1, result: { deleted: 'posts' } });
    const entries = await site.audit.ofApproval(approvalId);
    expect(entries.map((entry) => entry.action)).toEqual(['approval_requested', 'approved']);
    expect(entries[1]).toMatchObject({
      approvalId,
      skillName: 'deleteCollection',
      actor: { id: admin.id, name: admin.name },
      detail: { attempt: 1 },
    });
    expect(await site.audit.verify()).toEqual({ valid: true, entries: 2 });
    const notes = (await site.conversations.listMessages(conversation.id, { limit: 100 })).filter((message) =>
      message.content.startsWith(`Update on approval ${approvalId}`),
    );
    // Fixed words for people; who decided and the result travel as data, which the model reads as a tool result.
    expect(notes.map((note) => note.content)).toEqual([`Update on approval ${approvalId}: “Delete a collection” was approved and ran.`]);
    expect(notes[0]!.results).toMatchObject([
      { approvalId, decision: { status: 'approved', decidedBy: { name: admin.name }, result: { deleted: 'posts' } } },
    ]);
    // Nothing is owed any more.
    const stored = await live.aiStores.models.approvals.findById(approvalId).lean();
    expect([...(stored?.owedAudit ?? []), ...(stored?.owedNotes ?? []), ...(stored?.outbox ?? [])]).toEqual([]);

    // A late delivery to a live worker finds the approval settled: it runs nothing and audits nothing.
    const liveRunner = new ApprovalJobRunner({ stores: live.aiStores, executors: recorder.executors, targets: NO_TARGETS });
    expect(await liveRunner.run(job, { settleTransient: true })).toBe('skipped');
    expect(recorder.calls).toHaveLength(1);
    expect((await site.audit.ofApproval(approvalId)).map((entry) => entry.action)).toEqual(['approval_requested', 'approved']);
  });
});

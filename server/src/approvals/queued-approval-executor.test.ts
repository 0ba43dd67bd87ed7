// A decision's wait for its job: answered by the approval's own settlement event as the relay publishes it, by a
// read of the approval when that event never comes (pub/sub drops what is sent while a subscriber reconnects), and
// with `executing` when the job is still running once DECIDE_WAIT_MS is up. Over the embedded MongoDB, with the
// real outbox relay; the queue's job is the settlement a worker would write.
import { type Approval, type SiteEvent, type SkillExecutionJob, UnavailableError } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { createEventLog, type EventLog } from '../store/event-log.js';
import { OutboxRelay } from '../store/outbox.js';
import { AiStores } from '../store/ai/ai-stores.js';
import { pendingApproval } from '../../test-support/ai-arbitraries.js';
import { freshSiteId } from '../../test-support/ai-test-database.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { requeue, settle, startExecution } from './approval-operations.js';
import { QueuedApprovalExecutor, SETTLEMENT_READ_EVERY_MS } from './queued-approval-executor.js';
import { SettledApprovals, type SettlementWatch } from './settled-approvals.js';
import type { SkillExecutionQueue } from './skill-execution.queue.js';

const logger = createLogger({ level: 'silent' });
const decider = { id: 'u-bea', name: 'Bea' };

let database: TestDatabase;
let aiStores: AiStores;
let eventLog: EventLog;
/** SettledApprovals, counting the watches not stopped yet: a decision leaves none behind, whatever answered it. */
class TrackedSettlements {
  private readonly real = new SettledApprovals();
  open = 0;
  observe(event: SiteEvent): void {
    this.real.observe(event);
  }
  watch(executing: Approval): SettlementWatch {
    const watch = this.real.watch(executing);
    this.open += 1;
    let stopped = false;
    return {
      next: (ms) => watch.next(ms),
      stop: () => {
        if (!stopped) this.open -= 1;
        stopped = true;
        watch.stop();
      },
    };
  }
}
const settlements = new TrackedSettlements();
/** What the relay does with an event: hand it to the decisions (as the socket server does), or lose it. */
let deliver: (event: SiteEvent) => void = () => {};
/** Reads of an approval the executor made. */
let reads = 0;

beforeAll(async () => {
  database = await openTestDatabase('queued-executor');
  eventLog = await createEventLog(database.connection);
  const relay = new OutboxRelay({ eventLog: eventLog.forSite, publish: (event) => deliver(event), logger });
  aiStores = new AiStores(database.connection, relay);
  await aiStores.ensureIndexes();
});
afterAll(async () => database?.close());

async function decided(): Promise<Approval> {
  const { approvals } = aiStores.forSite(freshSiteId());
  const approval = await approvals.insert(pendingApproval({ skillName: 'createCollection', arguments: { name: 'posts' } }));
  return (await startExecution(approvals, approval, { actor: decider, at: new Date() }))!;
}

/** A queue whose job, `afterMs` after it was added, does what `job` says to the approval (as a worker would). */
function queueDoing(job: ((executing: Approval) => Promise<unknown>) | 'nothing' | 'down', afterMs = 30): SkillExecutionQueue {
  return {
    async add(added) {
      if (job === 'down') throw new Error('Redis is not ready (test)');
      const { approvals } = aiStores.forSite(added.siteId);
      if (job !== 'nothing')
        setTimeout(async () => {
          const executing = await approvals.get(added.approvalId);
          if (executing) await job(executing);
        }, afterMs);
      return {} as Awaited<ReturnType<SkillExecutionQueue['add']>>;
    },
    getJob: async () => undefined,
    close: async () => {},
  };
}

const executes = (executing: Approval) =>
  settle(aiStores.forSite(executing.siteId).approvals, executing, { outcome: { ok: true, result: { id: 'c1' } }, at: new Date() });

function executor(queue: SkillExecutionQueue, waitMs: number, readEveryMs?: number): QueuedApprovalExecutor {
  // The executor's reads are counted; everything else is the real store.
  const counted = {
    forSite(siteId: string) {
      const stores = aiStores.forSite(siteId);
      const get = stores.approvals.get.bind(stores.approvals);
      stores.approvals.get = (id: string) => {
        reads++;
        return get(id);
      };
      return stores;
    },
  } as unknown as AiStores;
  return new QueuedApprovalExecutor({ queue, stores: counted, settlements, waitMs, logger, ...(readEveryMs ? { readEveryMs } : {}) });
}

describe('a decision waiting for its job', () => {
  it('answers with the approval as its job left it when its event arrives, without reading it', { timeout: 30_000 }, async () => {
    deliver = (event) => settlements.observe(event);
    reads = 0;
    const executing = await decided();
    // Reads are 20 s apart: however slow this machine is at settling, only the event can answer before one.
    const answered = await executor(queueDoing(executes), 20_000, 20_000).execute(executing);
    expect(answered.status).toBe('approved');
    expect(answered.revision).toBe(executing.revision + 1);
    expect(answered).toEqual(await aiStores.forSite(executing.siteId).approvals.get(executing.id));
    expect(reads).toBe(0);
    expect(settlements.open).toBe(0);
  });

  it('names in its job the seq of its decision’s own event, so that the job’s first append need not read the head', async () => {
    const heard: SiteEvent[] = [];
    deliver = (event) => {
      heard.push(event);
      settlements.observe(event);
    };
    const executing = await decided();
    const queue = queueDoing(executes);
    const add = queue.add;
    let queued: SkillExecutionJob | undefined;
    queue.add = (job) => {
      queued = job;
      return add(job);
    };
    const { knownSeq } = eventLog;
    await new QueuedApprovalExecutor({ queue, stores: aiStores, settlements, waitMs: 10_000, logger, knownSeq }).execute(executing);
    const decision = heard.find(
      (event) =>
        event.name === 'approval-decided' && event.payload.approval.id === executing.id && event.payload.approval.status === 'executing',
    );
    expect(decision?.payload.seq).toBe(2); // after the approval's creation
    expect(queued).toEqual({ siteId: executing.siteId, approvalId: executing.id, attempt: executing.attempts, fresh: true, headSeq: 2 });
  });

  it('answers pending with the error when the job put it back', async () => {
    deliver = (event) => settlements.observe(event);
    const executing = await decided();
    const failed = (approval: Approval) =>
      requeue(aiStores.forSite(approval.siteId).approvals, approval, { lastError: 'the worker lost its connection', at: new Date() });
    const answered = await executor(queueDoing(failed), 10_000).execute(executing);
    expect(answered).toMatchObject({ status: 'pending', lastError: 'the worker lost its connection' });
  });

  it('reads the approval when its event is lost, long before the wait is up', async () => {
    deliver = () => {};
    reads = 0;
    const executing = await decided();
    const started = Date.now();
    const answered = await executor(queueDoing(executes), 10_000).execute(executing);
    expect(answered.status).toBe('approved');
    expect(reads).toBeGreaterThanOrEqual(1);
    // Not by an event (none came): by a read, once the first interval (a second by default) was up.
    expect(Date.now() - started).toBeGreaterThanOrEqual(SETTLEMENT_READ_EVERY_MS - 10);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(settlements.open).toBe(0);
  });

  it('answers executing when the job is still running once the wait is up', async () => {
    deliver = (event) => settlements.observe(event);
    const executing = await decided();
    const started = Date.now();
    const answered = await executor(queueDoing('nothing'), 300).execute(executing);
    expect(answered).toMatchObject({ id: executing.id, status: 'executing', revision: executing.revision });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(settlements.open).toBe(0);
  });

  it('undoes the decision when the queue cannot take the job, and watches nothing', async () => {
    deliver = (event) => settlements.observe(event);
    const executing = await decided();
    await expect(executor(queueDoing('down'), 10_000).execute(executing)).rejects.toBeInstanceOf(UnavailableError);
    expect(await aiStores.forSite(executing.siteId).approvals.get(executing.id)).toMatchObject({ status: 'pending' });
    expect(settlements.open).toBe(0);
  });
});

describe('SettledApprovals', () => {
  const outcome = (approval: Approval, changes: Partial<Approval>): SiteEvent =>
    ({ name: 'approval-decided', payload: { seq: 1, siteId: approval.siteId, approval: { ...approval, ...changes } } }) as SiteEvent;

  it('hears only a later outcome of the watched approval in its own site', async () => {
    const executing = await decided();
    const watch = settlements.watch(executing);
    // Still executing, an earlier revision (an older attempt's outcome arriving late), another site, another approval.
    settlements.observe(outcome(executing, { revision: executing.revision + 1 }));
    settlements.observe(outcome(executing, { status: 'pending', revision: executing.revision - 1 }));
    settlements.observe(outcome(executing, { status: 'approved', revision: executing.revision + 1, siteId: freshSiteId() }));
    settlements.observe(outcome(executing, { status: 'approved', revision: executing.revision + 1, id: 'ffffffffffffffffffffffff' }));
    expect(await watch.next(20)).toBeUndefined();
    settlements.observe(outcome(executing, { status: 'approved', revision: executing.revision + 1 }));
    expect(await watch.next(1000)).toMatchObject({ status: 'approved', revision: executing.revision + 1 });
    watch.stop();
  });

  it('keeps an outcome heard before anyone asked, and the latest of two', async () => {
    const executing = await decided();
    const watch = settlements.watch(executing);
    settlements.observe(outcome(executing, { status: 'expired', revision: executing.revision + 2 }));
    settlements.observe(outcome(executing, { status: 'pending', revision: executing.revision + 1 }));
    expect(await watch.next(0)).toMatchObject({ status: 'expired' });
    watch.stop();
  });
});

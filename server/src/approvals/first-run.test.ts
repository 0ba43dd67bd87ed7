// Which runs of an approved skill know they are their operation's first (SkillExecutionContext.firstRun, which lets
// createItem write at once): the decision's own job on its first start in the approval's first attempt, and a plan step
// this run marked running. Never a retried or stalled job, one the reconciler queued again, an approval decided again,
// or a step a killed worker left running: those look for an earlier run's effect first. Over real Redis and MongoDB.
import { randomBytes } from 'node:crypto';
import { type Approval, PLAN_SKILL_NAME, SKILL_EXECUTION_QUEUE, type SkillExecutionJob, ValidationError } from '@lumibase/shared';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { type QueueWorker, startQueueWorker } from '../infrastructure/queue-table.js';
import { NO_TARGETS } from '../skills/approval-targets.js';
import { createAiModels } from '../store/ai/ai-models.js';
import type { AiStores } from '../store/ai/ai-stores.js';
import { pendingApproval } from '../../test-support/ai-arbitraries.js';
import { freshSiteId } from '../../test-support/ai-test-database.js';
import { type RecordingExecutors, recordingExecutors } from '../../test-support/recording-executors.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createTestStores, type TestStores } from '../../test-support/test-stores.js';
import { startExecution } from './approval-operations.js';
import { ApprovalJobRunner, type JobOutcome } from './approval-job-runner.js';
import { recordSteps } from './plan-operations.js';
import { QueuedApprovalExecutor } from './queued-approval-executor.js';
import { SettledApprovals } from './settled-approvals.js';
import { Reconciler } from './reconciler.js';
import { createSkillExecutionQueue, type SkillExecutionQueue } from './skill-execution.queue.js';
import { createSkillExecutionProcessor } from './skill-execution.processor.js';

const redisUrl = process.env.LUMIBASE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `test-first-run-${randomBytes(4).toString('hex')}`;
const logger = createLogger({ level: 'silent' });
const decider = { id: 'u-bea', name: 'Bea' };

let database: TestDatabase;
let testStores: TestStores;
let aiStores: AiStores;
let recorder: RecordingExecutors;
let runner: ApprovalJobRunner;

beforeAll(async () => {
  database = await openTestDatabase('first-run');
  testStores = await createTestStores(database.connection);
  aiStores = testStores.aiStores;
  recorder = recordingExecutors();
  runner = new ApprovalJobRunner({ stores: aiStores, executors: recorder.executors, targets: NO_TARGETS });
});
afterAll(async () => database?.close());

const CREATE = { skillName: 'createItem', arguments: { collection: 'posts', data: { title: 'Hello' } } };

/** A pending approval of `overrides` in a new site, moved to executing as a decision does. */
async function decided(overrides: Parameters<typeof pendingApproval>[0] = CREATE): Promise<Approval> {
  const { approvals } = aiStores.forSite(freshSiteId());
  const approval = await approvals.insert(pendingApproval(overrides));
  return (await startExecution(approvals, approval, { actor: decider, at: new Date() }))!;
}

const jobOf = (approval: Approval): SkillExecutionJob => ({ siteId: approval.siteId, approvalId: approval.id, attempt: approval.attempts });

describe('the job runner', () => {
  it('passes firstRun for the first start in the first attempt of a single skill, and only then', async () => {
    recorder.reset();
    const approval = await decided();
    recorder.behaviour = { error: new ValidationError({ message: 'refused' }) };
    await runner.run(jobOf(approval), { settleTransient: true, firstStart: true });
    expect(recorder.calls.at(-1)!.context.firstRun).toBe(true);

    // Decided again: the second attempt runs under the same operation id (the approval's), which the first may have used.
    const { approvals } = aiStores.forSite(approval.siteId);
    const again = (await startExecution(approvals, (await approvals.get(approval.id))!, { actor: decider, at: new Date() }))!;
    expect(again.attempts).toBe(2);
    recorder.behaviour = { result: { id: 'i1' } };
    await runner.run(jobOf(again), { settleTransient: true, firstStart: true });
    expect(recorder.calls.at(-1)!.context).not.toHaveProperty('firstRun');

    await runner.run(jobOf(await decided()), { settleTransient: true });
    expect(recorder.calls.at(-1)!.context).not.toHaveProperty('firstRun');
  });

  it('runs a plan step a killed worker left running without firstRun, and the steps it marks running with it', async () => {
    recorder.reset();
    recorder.behaviour = { result: { id: 'i1' } };
    const plan = await decided({
      skillName: PLAN_SKILL_NAME,
      arguments: {},
      steps: ['s1', 's2'].map((id) => ({ id, ...CREATE, status: 'planned' as const })),
    });
    const { approvals } = aiStores.forSite(plan.siteId);
    // What a worker killed inside step 1 leaves: the step marked running, its effect unknown.
    const killed = await recordSteps(approvals, plan, {
      steps: plan.steps.map((step, index) => ({ ...step, status: index === 0 ? 'running' : step.status })),
      at: new Date(),
    });
    await runner.run(jobOf(killed!), { settleTransient: true, firstStart: false });
    expect(recorder.calls.map((call) => [call.context.operationId.split(':').at(-1), call.context.firstRun])).toEqual([
      ['s1', undefined],
      ['s2', true],
    ]);
  });
});

describe('a skill-execution job on the real queue', () => {
  let queue: SkillExecutionQueue;
  let worker: QueueWorker;
  let inspect: Queue;
  const starts: { approvalId: string; firstStart: boolean }[] = [];
  const failOnce = new Set<string>();

  beforeAll(async () => {
    queue = createSkillExecutionQueue({ redisUrl, prefix, logger });
    inspect = new Queue(SKILL_EXECUTION_QUEUE, { connection: { url: redisUrl } as never, prefix });
    // The runner only records what the processor tells it: the processor and the queue are what is under test.
    const recordingRunner = {
      async run(job: SkillExecutionJob, { firstStart = false }: { settleTransient: boolean; firstStart?: boolean }): Promise<JobOutcome> {
        starts.push({ approvalId: job.approvalId, firstStart });
        if (failOnce.delete(job.approvalId)) throw new Error('a dropped connection');
        return 'approved';
      },
    };
    worker = startQueueWorker('skillExecution', {
      redisUrl,
      prefix,
      logger,
      settings: { WORKER_CONCURRENCY: 1, JOB_LOCK_MS: 30_000, EMBEDDINGS_RATE_LIMIT_PER_MINUTE: 0 },
      handler: createSkillExecutionProcessor({ runner: recordingRunner, logger }),
    });
  });
  afterAll(async () => {
    await worker?.close();
    await queue?.close();
    await inspect?.obliterate({ force: true }).catch(() => {});
    await inspect?.close();
  });

  async function startsOf(approvalId: string, count: number): Promise<boolean[]> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const seen = starts.filter((start) => start.approvalId === approvalId).map((start) => start.firstStart);
      if (seen.length >= count || Date.now() > deadline) return seen;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('queued by the decision: first on its first start, not on its retry', async () => {
    const approval = await decided();
    failOnce.add(approval.id);
    await new QueuedApprovalExecutor({ queue, stores: aiStores, settlements: new SettledApprovals(), waitMs: 0, logger }).execute(approval);
    expect(await startsOf(approval.id, 2)).toEqual([true, false]);
  });

  it('queued again by the reconciler (its job gone, the attempt may have run): never first', async () => {
    const approval = await decided();
    const reconciler = new Reconciler({
      relay: testStores.relay,
      approvals: createAiModels(database.connection).approvals,
      queue,
      logger,
      clock: () => new Date(Date.now() + 60_000),
    });
    await reconciler.reconcile();
    expect(await startsOf(approval.id, 1)).toEqual([false]);
  });
});

// The continuation job on real Redis (its processor in the queue table's worker): a continuation the requester's model-call limit holds back comes back after
// the wait it was told, as the same job, however many times it is held back (a wait uses up none of the job's attempts).
import { randomBytes } from 'node:crypto';
import { Types } from 'mongoose';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import { QUEUES, type QueueWorker, startQueueWorker } from '../../infrastructure/queue-table.js';
import type { Continuation, ContinuationResult } from '../continue-run.js';
import { eventually } from '../../../test-support/eventually.js';
import { type ContinuationQueue, createContinuationQueue } from './continuation.queue.js';
import { createContinuationProcessor } from './continuation.processor.js';

const redisUrl = process.env.LUMIBASE_TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `continuation-worker-${randomBytes(4).toString('hex')}`;
const logger = createLogger({ level: 'silent' });
const WAIT_MS = 150;
/** More refusals in a row than the job has attempts: a wait that counted as a failure would end it failed. */
const REFUSALS = (QUEUES.copilotContinuation.jobOptions.attempts ?? 1) + 2;

/** The continuation as the limit makes it answer: refused REFUSALS times, then run. */
const tries: { job: Continuation; at: number }[] = [];
const continuation = {
  async continueRun(job: Continuation): Promise<ContinuationResult> {
    tries.push({ job, at: Date.now() });
    if (tries.length <= REFUSALS) return { ran: false, why: 'model-call limit reached', retryAfterMs: WAIT_MS };
    return { ran: true, reply: 'Done.', messageId: 'm' };
  },
};

let queue: ContinuationQueue;
let worker: QueueWorker;
let reader: Redis;
/** The queue as a dashboard reads it: the job's state. */
let jobs: Queue;

beforeAll(() => {
  reader = new Redis(redisUrl, { maxRetriesPerRequest: null });
  jobs = new Queue(QUEUES.copilotContinuation.name, { connection: reader, prefix });
  queue = createContinuationQueue({ redisUrl, prefix, logger });
  worker = startQueueWorker('copilotContinuation', {
    redisUrl,
    prefix,
    logger,
    settings: { WORKER_CONCURRENCY: 1, JOB_LOCK_MS: 30_000, EMBEDDINGS_RATE_LIMIT_PER_MINUTE: 0 },
    handler: createContinuationProcessor({ continuation, logger }),
  });
});
afterAll(async () => {
  await worker?.close();
  await queue?.close();
  await jobs?.obliterate({ force: true });
  await jobs?.close();
  reader?.disconnect();
});

describe('a continuation held back by the requester’s model-call limit', () => {
  it('is run again after each wait, as the same job, until it runs', async () => {
    const job = { siteId: new Types.ObjectId().toHexString(), approvalId: 'a1', noteId: new Types.ObjectId().toHexString() };
    await queue.add(job);
    await eventually(async () => expect(tries).toHaveLength(REFUSALS + 1), { timeoutMs: 20_000 });
    expect(tries.every((entry) => JSON.stringify(entry.job) === JSON.stringify(job))).toBe(true);
    for (let index = 1; index < tries.length; index++)
      expect(tries[index]!.at - tries[index - 1]!.at, 'not before the wait it was told').toBeGreaterThanOrEqual(WAIT_MS - 5);
    // Completed, not failed: the waits used up none of its attempts.
    const stored = await jobs.getJob(`continue-${job.noteId}`);
    await eventually(async () => expect(await stored?.getState()).toBe('completed'));
  });
});

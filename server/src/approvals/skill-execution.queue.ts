// The `skill-execution` BullMQ queue as the server uses it: add a job per decision, and wait for its outcome.
import { SKILL_EXECUTION_QUEUE, type SkillExecutionJob, skillExecutionJobId } from '@lumibase/shared';
import { type Job, type JobsOptions, Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '../logger.js';

/** At-least-once delivery with retries for transient failures, backing off exponentially with jitter. */
export const SKILL_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 500, jitter: 0.5 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

export interface SkillExecutionQueue {
  /** Adds the job for one decision; rejects at once when Redis cannot take it. */
  add(job: SkillExecutionJob): Promise<Job>;
  /** Resolves when the job finished or `ms` passed, whichever comes first; never rejects. */
  waitForJob(job: Job, ms: number): Promise<void>;
  getJob(job: Pick<SkillExecutionJob, 'approvalId' | 'attempt'>): Promise<Job | undefined>;
  close(): Promise<void>;
}

export function createSkillExecutionQueue({
  redisUrl,
  prefix,
  logger,
}: {
  redisUrl: string;
  prefix: string;
  logger: Logger;
}): SkillExecutionQueue {
  // A producer must fail fast while Redis is down (decide answers 503) instead of queueing commands offline.
  const connection = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  connection.on('error', (error: Error) => logger.warn({ reason: error.message }, 'queue redis connection error'));
  const queue = new Queue<SkillExecutionJob>(SKILL_EXECUTION_QUEUE, { connection, prefix });
  queue.on('error', (error: Error) => logger.warn({ reason: error.message }, 'queue error'));
  let events: QueueEvents | undefined;
  const queueEvents = () => {
    if (!events) {
      events = new QueueEvents(SKILL_EXECUTION_QUEUE, { connection: { url: redisUrl }, prefix } as never);
      events.on('error', (error: Error) => logger.warn({ reason: error.message }, 'queue events error'));
    }
    return events;
  };

  return {
    async add(job) {
      if (connection.status !== 'ready') throw new Error(`Redis is not ready (${connection.status})`);
      return queue.add('execute', job, { ...SKILL_JOB_OPTIONS, jobId: skillExecutionJobId(job) });
    },
    async waitForJob(job, ms) {
      if (ms <= 0) return;
      await job.waitUntilFinished(queueEvents(), ms).catch(() => {
        // Failed, retried or still running after `ms`: the caller reads the approval's state either way.
      });
    },
    async getJob(job) {
      return (await queue.getJob(skillExecutionJobId(job))) ?? undefined;
    },
    async close() {
      // Closing politely needs Redis; while it is down, drop the connections instead of waiting for it.
      if (connection.status !== 'ready') {
        connection.disconnect();
        await Promise.race([Promise.all([events?.close(), queue.close()]), new Promise((done) => setTimeout(done, 1000))]);
        return;
      }
      await events?.close();
      await queue.close();
      connection.disconnect();
    },
  };
}

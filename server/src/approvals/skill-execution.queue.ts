// The `skill-execution` BullMQ queue as the server uses it: add a job per decision, and wait for its outcome.
// Name, job options and connection settings come from the queue table.
import { type SkillExecutionJob, skillExecutionJobId } from '@lumibase/shared';
import { type Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import { closeProducer, openProducerConnection, openWorkerConnection, QUEUES } from '../queues/queue-table.js';

const SPEC = QUEUES.skillExecution;

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
  // A producer fails fast while Redis is down (decide answers 503) instead of queueing commands offline.
  const producer = openProducerConnection(redisUrl, logger, 'queue');
  const queue = new Queue<SkillExecutionJob>(SPEC.name, { connection: producer.connection, prefix });
  queue.on('error', (error: Error) => logger.warn({ reason: error.message }, 'queue error'));
  let events: { events: QueueEvents; connection: Redis } | undefined;
  const queueEvents = () => {
    if (!events) {
      const connection = openWorkerConnection(redisUrl, logger, 'queue events');
      events = { events: new QueueEvents(SPEC.name, { connection, prefix }), connection };
      events.events.on('error', (error: Error) => logger.warn({ reason: error.message }, 'queue events error'));
    }
    return events.events;
  };

  return {
    async add(job) {
      await producer.ready();
      return queue.add('execute', job, { ...SPEC.jobOptions, jobId: skillExecutionJobId(job) });
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
      await closeProducer(producer.connection, async () => {
        await Promise.all([events?.events.close(), queue.close()]);
        events?.connection.disconnect();
      });
    },
  };
}

// The `skill-execution` BullMQ queue as the server uses it: add a job per decision (its outcome comes back as the
// approval's own site event: SettledApprovals).
// Name, job options and connection settings come from the queue table.
import { type SkillExecutionJob, skillExecutionJobId } from '@lumibase/shared';
import { type Job, Queue } from 'bullmq';
import type { Logger } from '../logger.js';
import { closeProducer, openProducerConnection, QUEUES } from '../infrastructure/queue-table.js';

const SPEC = QUEUES.skillExecution;

export interface SkillExecutionQueue {
  /** Adds the job for one decision; rejects at once when Redis cannot take it. */
  add(job: SkillExecutionJob): Promise<Job>;
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

  return {
    async add(job) {
      await producer.ready();
      return queue.add('execute', job, { ...SPEC.jobOptions, jobId: skillExecutionJobId(job) });
    },
    async getJob(job) {
      return (await queue.getJob(skillExecutionJobId(job))) ?? undefined;
    },
    async close() {
      // Closing politely needs Redis; while it is down, drop the connections instead of waiting for it.
      await closeProducer(producer.connection, () => queue.close());
    },
  };
}

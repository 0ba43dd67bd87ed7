// The `copilot-continuation` BullMQ queue as the relay uses it: one job per settlement of a conversation's approval.
import type { CopilotContinuationJob } from '@lumibase/shared';
import { Queue } from 'bullmq';
import type { Logger } from '../../logger.js';
import { closeProducer, openProducerConnection, QUEUES } from '../../infrastructure/queue-table.js';

const SPEC = QUEUES.copilotContinuation;

export interface ContinuationQueue {
  /**
   * jobId = the note's id: a relay that drains the same note twice queues one job. Rejects at once when Redis
   * cannot take it: the note stays owed on the approval and the relay (or the reconciler) tries again.
   */
  add(job: CopilotContinuationJob): Promise<void>;
  close(): Promise<void>;
}

export function createContinuationQueue({
  redisUrl,
  prefix,
  logger,
}: {
  redisUrl: string;
  prefix: string;
  logger: Logger;
}): ContinuationQueue {
  const producer = openProducerConnection(redisUrl, logger, 'continuation queue');
  const queue = new Queue<CopilotContinuationJob>(SPEC.name, { connection: producer.connection, prefix });
  queue.on('error', (error: Error) => logger.warn({ reason: error.message }, 'continuation queue error'));
  return {
    async add(job) {
      await producer.ready();
      await queue.add('continue', job, { ...SPEC.jobOptions, jobId: `continue-${job.noteId}` });
    },
    close: () => closeProducer(producer.connection, () => queue.close()),
  };
}

// The BullMQ worker of the `skill-execution` queue: the worker process runs it, and so do route tests, in-process.
// Name, worker options and connection settings come from the queue table.
import { Worker } from 'bullmq';
import type { Logger } from '../logger.js';
import { openWorkerConnection, QUEUES, WORKER_STOP_BOUND_MS } from '../queues/queue-table.js';
import type { ApprovalJobRunner } from './approval-job-runner.js';
import { createSkillExecutionProcessor, type SkillExecutionProcessorOptions } from './skill-execution.processor.js';

export interface SkillExecutionWorkerOptions {
  redisUrl: string;
  prefix: string;
  runner: Pick<ApprovalJobRunner, 'run'>;
  logger: Logger;
  concurrency: number;
  /** How long a worker holds a job before another may take it over (JOB_LOCK_MS). */
  lockMs: number;
  heard?: SkillExecutionProcessorOptions['heard'];
}

export interface SkillExecutionWorker {
  worker: Worker;
  /** Stops taking jobs and lets the running ones finish, within a bound. */
  close(): Promise<void>;
}

export function createSkillExecutionWorker({
  redisUrl,
  prefix,
  runner,
  logger,
  concurrency,
  lockMs,
  heard,
}: SkillExecutionWorkerOptions): SkillExecutionWorker {
  const connection = openWorkerConnection(redisUrl, logger, 'worker');
  const worker = new Worker(QUEUES.skillExecution.name, createSkillExecutionProcessor({ runner, logger, ...(heard ? { heard } : {}) }), {
    connection,
    prefix,
    ...QUEUES.skillExecution.worker({ concurrency, lockMs }),
  });
  worker.on('error', (error: Error) => logger.warn({ reason: error.message }, 'worker error'));
  worker.on('failed', (job, error) =>
    logger.warn({ jobId: job?.id, reason: error.message, attemptsMade: job?.attemptsMade }, 'skill-execution job failed'),
  );
  return {
    worker,
    async close() {
      await Promise.race([worker.close(), new Promise((done) => setTimeout(done, WORKER_STOP_BOUND_MS))]);
      connection.disconnect();
    },
  };
}

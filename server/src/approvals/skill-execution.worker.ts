// The BullMQ worker of the `skill-execution` queue: the worker process runs it, and so do route tests, in-process.
import { SKILL_EXECUTION_QUEUE } from '@lumibase/shared';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import type { ApprovalJobRunner } from './approval-job-runner.js';
import { createSkillExecutionProcessor } from './skill-execution.processor.js';

/** How long a stopping worker lets its running job finish before closing anyway. */
const STOP_BOUND_MS = 10_000;

export interface SkillExecutionWorkerOptions {
  redisUrl: string;
  prefix: string;
  runner: ApprovalJobRunner;
  logger: Logger;
  concurrency: number;
  /** How long a worker holds a job before another may take it over (JOB_LOCK_MS). */
  lockMs: number;
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
}: SkillExecutionWorkerOptions): SkillExecutionWorker {
  // BullMQ requires maxRetriesPerRequest: null on the connection its worker blocks on.
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', (error: Error) => logger.warn({ reason: error.message }, 'worker redis connection error'));
  const worker = new Worker(SKILL_EXECUTION_QUEUE, createSkillExecutionProcessor({ runner, logger }), {
    connection,
    prefix,
    concurrency,
    lockDuration: lockMs,
    stalledInterval: lockMs,
  });
  worker.on('error', (error: Error) => logger.warn({ reason: error.message }, 'worker error'));
  worker.on('failed', (job, error) =>
    logger.warn({ jobId: job?.id, reason: error.message, attemptsMade: job?.attemptsMade }, 'skill-execution job failed'),
  );
  return {
    worker,
    async close() {
      await Promise.race([worker.close(), new Promise((done) => setTimeout(done, STOP_BOUND_MS))]);
      connection.disconnect();
    },
  };
}

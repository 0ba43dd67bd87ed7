// The BullMQ worker of the `copilot-continuation` queue: the worker process runs it (and the test server, in-process).
import type { CopilotContinuationJob } from '@lumibase/shared';
import { DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Logger } from '../logger.js';
import { openWorkerConnection, QUEUES, WORKER_STOP_BOUND_MS } from '../queues/queue-table.js';
import type { ContinueRunService } from '../services/copilot/continue-run.js';

const SPEC = QUEUES.copilotContinuation;

export function createContinuationWorker({
  redisUrl,
  prefix,
  logger,
  continuation,
  concurrency,
}: {
  redisUrl: string;
  prefix: string;
  logger: Logger;
  continuation: Pick<ContinueRunService, 'continueRun'>;
  concurrency: number;
}) {
  const connection = openWorkerConnection(redisUrl, logger, 'continuation worker');
  const worker = new Worker(
    SPEC.name,
    async (job: Job, token?: string) => {
      const parsed = SPEC.job.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError('malformed continuation job');
      const data: CopilotContinuationJob = parsed.data;
      const done = await continuation.continueRun(data);
      if (!done.ran && 'retryAfterMs' in done) {
        // The requester's model-call limit: the same job comes back once the window allows, its attempts untouched
        // (a wait is no failure), however long the requester keeps the window full.
        await job.moveToDelayed(Date.now() + done.retryAfterMs, token);
        throw new DelayedError();
      }
      logger.info({ approvalId: data.approvalId, ran: done.ran, ...(done.ran ? {} : { why: done.why }) }, 'copilot continuation done');
    },
    { connection, prefix, ...SPEC.worker({ concurrency }) },
  );
  worker.on('error', (error: Error) => logger.warn({ reason: error.message }, 'continuation worker error'));
  worker.on('failed', (job, error) =>
    logger.warn({ approvalId: job?.data?.approvalId, reason: error.message }, 'copilot continuation failed'),
  );
  return {
    worker,
    async close() {
      await Promise.race([worker.close(), new Promise((done) => setTimeout(done, WORKER_STOP_BOUND_MS))]);
      connection.disconnect();
    },
  };
}

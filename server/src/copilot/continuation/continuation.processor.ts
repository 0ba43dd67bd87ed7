// Runs one `copilot-continuation` job: a settled approval of a conversation continues its run, once.
import type { CopilotContinuationJob } from '@lumibase/shared';
import { DelayedError, type Job, UnrecoverableError, type Worker } from 'bullmq';
import type { Logger } from '../../logger.js';
import { QUEUES } from '../../infrastructure/queue-table.js';
import type { ContinueRunService } from '../continue-run.js';

export function createContinuationProcessor({
  continuation,
  logger,
}: {
  continuation: Pick<ContinueRunService, 'continueRun'>;
  logger: Logger;
}) {
  return async (job: Job, _worker: Pick<Worker, 'rateLimit'>, token?: string): Promise<void> => {
    const parsed = QUEUES.copilotContinuation.job.safeParse(job.data);
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
  };
}

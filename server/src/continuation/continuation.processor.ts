// Runs one `copilot-continuation` job: a settled approval of a conversation continues its run, once.
import type { CopilotContinuationJob } from '@lumibase/shared';
import { type Job, UnrecoverableError } from 'bullmq';
import type { Logger } from '../logger.js';
import { QUEUES } from '../queues/queue-table.js';
import type { ContinueRunService } from '../services/copilot/continue-run.js';

export function createContinuationProcessor({
  continuation,
  logger,
}: {
  continuation: Pick<ContinueRunService, 'continueRun'>;
  logger: Logger;
}) {
  return async (job: Job): Promise<void> => {
    const parsed = QUEUES.copilotContinuation.job.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError('malformed continuation job');
    const data: CopilotContinuationJob = parsed.data;
    const done = await continuation.continueRun(data);
    logger.info({ approvalId: data.approvalId, ran: done.ran, ...(done.ran ? {} : { why: done.why }) }, 'copilot continuation done');
  };
}

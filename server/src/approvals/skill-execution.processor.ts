// Executes approved skills: one BullMQ job per decision, at least once, with the approval id as operation id.
import { SkillExecutionJob } from '@lumibase/shared';
import { type Job, UnrecoverableError } from 'bullmq';
import type { Logger } from '../logger.js';
import type { ApprovalJobRunner } from './approval-job-runner.js';

export interface SkillExecutionProcessorOptions {
  runner: Pick<ApprovalJobRunner, 'run'>;
  logger: Logger;
  /** Hears the site's event seq the deciding process knew when it queued the job (EventLog.heard). */
  heard?: (siteId: string, seq: number, at: number) => void;
}

export function createSkillExecutionProcessor({ runner, logger, heard }: SkillExecutionProcessorOptions) {
  return async (job: Job): Promise<{ outcome: string }> => {
    const parsed = SkillExecutionJob.safeParse(job.data);
    // A malformed job can never succeed: fail it without retries.
    if (!parsed.success) throw new UnrecoverableError(`malformed skill-execution job ${job.id}`);
    const attemptsAllowed = job.opts.attempts ?? 1;
    const lastTry = job.attemptsMade + 1 >= attemptsAllowed;
    logger.info({ jobId: job.id, approvalId: parsed.data.approvalId, try: job.attemptsMade + 1 }, 'skill-execution job started');
    // BullMQ counts every start, a stalled job's restart and a retry included: the decision's own job on its first
    // start is the one run that knows it is first (createItem then writes at once, skills/create-item.ts).
    const firstStart = parsed.data.fresh === true && job.attemptsStarted === 1;
    if (parsed.data.headSeq !== undefined) heard?.(parsed.data.siteId, parsed.data.headSeq, job.timestamp);
    const outcome = await runner.run(parsed.data, { settleTransient: lastTry, firstStart });
    logger.info(
      { jobId: job.id, approvalId: parsed.data.approvalId, siteId: parsed.data.siteId, outcome, try: job.attemptsMade + 1 },
      'skill-execution job done',
    );
    if (outcome === 'pending') {
      // Settled as failed (lastError recorded): retrying cannot fix it, so no further tries.
      throw new UnrecoverableError('the skill failed; the approval is pending again with lastError');
    }
    return { outcome };
  };
}

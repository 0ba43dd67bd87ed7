// Job payloads that cross from the server to the workers through BullMQ: parsed on arrival.
import { z } from 'zod';
import { WEBHOOKS_QUEUE } from './api/webhooks.js';

export const SKILL_EXECUTION_QUEUE = 'skill-execution';

export const SkillExecutionJob = z.object({
  siteId: z.string().min(1),
  approvalId: z.string().min(1),
  /** The approval's `attempts` when this decision moved it to `executing`: a job for an older attempt is a no-op. */
  attempt: z.number().int().min(1),
});
export type SkillExecutionJob = z.infer<typeof SkillExecutionJob>;

/** BullMQ refuses ':' in custom ids; one id per decision means one decision never enqueues twice. */
export function skillExecutionJobId({ approvalId, attempt }: Pick<SkillExecutionJob, 'approvalId' | 'attempt'>): string {
  return `${approvalId}-${attempt}`;
}

/** Every BullMQ queue LumiBase runs: what the queue dashboard shows. */
export const QUEUE_NAMES = [SKILL_EXECUTION_QUEUE, WEBHOOKS_QUEUE] as const;

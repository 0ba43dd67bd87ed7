// Job payloads that cross from the server to the workers through BullMQ: parsed on arrival.
import { z } from 'zod';

export const SKILL_EXECUTION_QUEUE = 'skill-execution';

export const SkillExecutionJob = z.object({
  siteId: z.string().min(1),
  approvalId: z.string().min(1),
  /** The approval's `attempts` when this decision moved it to `executing`: a job for an older attempt is a no-op. */
  attempt: z.number().int().min(1),
  /**
   * Set by the decision that queued this job, never by the reconciler (which queues an attempt again because it may
   * have run): on its first start, no run of this attempt can have begun (skill-execution.processor.ts).
   */
  fresh: z.literal(true).optional(),
  /**
   * The site's latest event seq as the deciding process knew it when it queued this job: its decision's own event,
   * appended already. The job's first append soon after guesses its successor instead of reading the head first.
   */
  headSeq: z.number().int().min(1).optional(),
});
export type SkillExecutionJob = z.infer<typeof SkillExecutionJob>;

/** BullMQ refuses ':' in custom ids; one id per decision means one decision never enqueues twice. */
export function skillExecutionJobId({ approvalId, attempt }: Pick<SkillExecutionJob, 'approvalId' | 'attempt'>): string {
  return `${approvalId}-${attempt}`;
}

export const COPILOT_CONTINUATION_QUEUE = 'copilot-continuation';

/**
 * A settled approval's run goes on: the model of its conversation hears the outcome. `noteId` is the id of the
 * outcome note the settlement owed (one per settlement): the job id, and the seed of the reply's message id.
 */
export const CopilotContinuationJob = z.object({
  siteId: z.string().min(1),
  approvalId: z.string().min(1),
  noteId: z.string().regex(/^[0-9a-f]{24}$/),
});
export type CopilotContinuationJob = z.infer<typeof CopilotContinuationJob>;

export const EMBEDDINGS_QUEUE = 'embeddings';

/**
 * What to (re-)embed; the processor reads the current content from MongoDB, so a job names its target only.
 * `item`: one item (created, updated, restored or deleted); `collection`: a collection's schema and items
 * (its fields changed, it was created, deleted or restored); `site`: every item of the site (a model change).
 */
export const EmbeddingJob = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('item'), siteId: z.string().min(1), collection: z.string().min(1), itemId: z.string().min(1) }),
  z.object({ kind: z.literal('collection'), siteId: z.string().min(1), collection: z.string().min(1) }),
  z.object({ kind: z.literal('site'), siteId: z.string().min(1) }),
]);
export type EmbeddingJob = z.infer<typeof EmbeddingJob>;

/** One deduplication id per target: a burst of changes to one item leaves one job waiting (BullMQ refuses ':'). */
export function embeddingJobKey(job: EmbeddingJob): string {
  switch (job.kind) {
    case 'item':
      return `item-${job.siteId}-${job.collection}-${job.itemId}`;
    case 'collection':
      return `collection-${job.siteId}-${job.collection}`;
    case 'site':
      return `site-${job.siteId}`;
  }
}

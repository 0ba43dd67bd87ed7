// The one hook through which tests compose a process differently from production: composeApi and composeWorkers
// take `parts`, and build everything else exactly as the server, worker and all-in-one processes do.
//
// Each part is a function of the real one (wrap it, or return another): a test counts skill runs, makes the queue
// refuse jobs as Redis does when it is down, counts embedder calls, moves time, or holds a worker's job (fault
// delays, test/support/fault-delays.ts). Production passes no parts; nothing here is a setting.
import type { ApprovalJobRunner } from './approvals/approval-job-runner.js';
import type { SkillExecutionQueue } from './approvals/skill-execution.queue.js';
import type { Embedder } from './embeddings/embedder.js';
import type { SkillExecutors } from './approvals/skill-executors.js';

/** What the skill-execution worker calls per job. */
export type JobRunner = Pick<ApprovalJobRunner, 'run'>;

export interface CompositionParts {
  /** The skill executors: the API's gate and the workers' job runner each run the ones their process composes. */
  executors?: (real: SkillExecutors) => SkillExecutors;
  /** The skill-execution queue decisions add jobs to (API). */
  queue?: (real: SkillExecutionQueue) => SkillExecutionQueue;
  /** The embedder of search and of the embeddings worker. */
  embedder?: (real: Embedder) => Embedder;
  /** What the gate, the decider and the expiry sweep take as now. */
  clock?: () => Date;
  /** The skill-execution worker's job runner (a test holds jobs before they run). */
  jobRunner?: (real: JobRunner) => JobRunner;
  /** scrypt cost of the password hasher; unset is the production cost. */
  scryptParameters?: { N: number; r: number; p: number };
}

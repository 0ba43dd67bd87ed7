// Fault delays, test-side: pieces that hold a worker's job at the moments crash and race tests need, each wrapping
// the real one. Route tests pass them to startTestServer; cross-process tests start the worker through
// test/support/fault-worker.ts, which composes the worker process with them.
import type { SkillExecutors } from '../src/skills/skill-executors.js';
import type { JobHandler } from '../src/infrastructure/queue-table.js';

const sleep = (ms: number) => new Promise((wait) => setTimeout(wait, ms));

/** The skill-execution worker waits `ms` after taking a job, before it checks the approval's target and runs it. */
export function delayBeforeSkill(ms: number): (real: JobHandler) => JobHandler {
  return (real) => async (job, worker) => {
    if (ms > 0) await sleep(ms);
    return real(job, worker);
  };
}

/** A skill that took effect returns `ms` later: a crash test kills the worker before it settles the approval. */
export function delayAfterSkill(ms: number): (real: SkillExecutors) => SkillExecutors {
  return (real) => {
    if (ms <= 0) return real;
    const delayed: Record<string, unknown> = {};
    for (const [name, execute] of Object.entries(real) as [string, (...args: unknown[]) => Promise<unknown>][]) {
      delayed[name] = async (...args: unknown[]) => {
        const result = await execute(...args);
        await sleep(ms);
        return result;
      };
    }
    return delayed as SkillExecutors;
  };
}

// Test support: wraps real SkillExecutors to record every run (skill, operation id, success) without changing what they do.
import { SKILL_NAMES } from '@lumibase/shared';
import type { SkillExecutionContext, SkillExecutors } from '../src/skills/skill-executors.js';

export interface ExecutorRun {
  name: string;
  operationId: string;
  ok: boolean;
}

type AnyExecutor = (args: unknown, context: SkillExecutionContext) => Promise<unknown>;

/** `delayMs(name, args)` may slow a run down (to outlast DECIDE_WAIT_MS, say). */
export function countingExecutors(
  real: SkillExecutors,
  runs: ExecutorRun[],
  delayMs: (name: string, args: unknown) => number = () => 0,
): SkillExecutors {
  const wrapped: Record<string, AnyExecutor> = {};
  for (const name of SKILL_NAMES) {
    const executor = real[name] as AnyExecutor;
    wrapped[name] = async (args, context) => {
      const delay = delayMs(name, args);
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      try {
        const result = await executor(args, context);
        runs.push({ name, operationId: context.operationId, ok: true });
        return result;
      } catch (error) {
        runs.push({ name, operationId: context.operationId, ok: false });
        throw error;
      }
    };
  }
  return wrapped as unknown as SkillExecutors;
}

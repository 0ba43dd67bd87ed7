// Test support: SkillExecutors that record every call and answer as the test says.
import { SKILL_NAMES, type SkillName } from '@lumibase/shared';
import type { SkillExecutionContext, SkillExecutors } from '../src/skills/skill-executors.js';

export interface RecordedCall {
  name: SkillName;
  args: unknown;
  context: SkillExecutionContext;
}

export interface RecordingExecutors {
  executors: SkillExecutors;
  calls: RecordedCall[];
  /** What the next calls do: return `result`, or throw `error` when set. */
  behaviour: { result?: unknown; error?: unknown; delayMs?: number };
  reset(): void;
}

export function recordingExecutors(): RecordingExecutors {
  const recording: RecordingExecutors = {
    calls: [],
    behaviour: {},
    executors: {} as SkillExecutors,
    reset() {
      recording.calls.length = 0;
      recording.behaviour = {};
    },
  };
  const executors: Record<string, (args: unknown, context: SkillExecutionContext) => Promise<unknown>> = {};
  for (const name of SKILL_NAMES) {
    executors[name] = async (args, context) => {
      recording.calls.push({ name, args, context });
      const { result, error, delayMs } = recording.behaviour;
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (error !== undefined) throw error;
      return result;
    };
  }
  recording.executors = executors as unknown as SkillExecutors;
  return recording;
}

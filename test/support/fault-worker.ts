// Test-only entry: the worker process run exactly as workers/src/main.ts runs it, with fault delays
// (server/src/testing/fault-delays.ts) passed through the composition hook. The delays come from the test's
// environment (FAULT_DELAY_BEFORE_SKILL_MS, FAULT_DELAY_AFTER_SKILL_MS), which production never reads.
import { exitWithStartupError } from '@lumibase/server/core';
import { delayAfterSkill, delayBeforeSkill } from '../../server/src/testing/fault-delays.js';
import { runWorkerProcess } from '../../workers/src/run-worker-process.js';

const delay = (name: string) => Number(process.env[name] ?? '0');

runWorkerProcess({
  processName: 'the fault worker',
  parts: {
    jobRunner: delayBeforeSkill(delay('FAULT_DELAY_BEFORE_SKILL_MS')),
    executors: delayAfterSkill(delay('FAULT_DELAY_AFTER_SKILL_MS')),
  },
}).catch((error: unknown) => exitWithStartupError(error));

// Test-only entry: the worker process composed exactly as workers/src/main.ts composes it, with fault delays
// (server/src/testing/fault-delays.ts) passed through the composition hook. The delays come from the test's
// environment (FAULT_DELAY_BEFORE_SKILL_MS, FAULT_DELAY_AFTER_SKILL_MS), which production never reads.
import { delayAfterSkill, delayBeforeSkill } from '../../server/src/testing/fault-delays.js';
import { composeWorkers, createLogger, exitWithStartupError, loadConfig, startInfrastructure, stopOnSignals } from '@lumibase/server/core';

const delay = (name: string) => Number(process.env[name] ?? '0');

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'lumibase-worker', format: config.LOG_FORMAT });
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>> | undefined;
  let workers: ReturnType<typeof composeWorkers> | undefined;
  const signals = stopOnSignals({
    logger,
    stop: async () => {
      await workers?.stop();
      await infrastructure?.stop();
    },
  });
  try {
    infrastructure = await startInfrastructure(config, logger, { embeddedMongo: false, processName: 'the fault worker' });
    workers = composeWorkers({
      config,
      logger,
      infrastructure,
      parts: {
        jobRunner: delayBeforeSkill(delay('FAULT_DELAY_BEFORE_SKILL_MS')),
        executors: delayAfterSkill(delay('FAULT_DELAY_AFTER_SKILL_MS')),
      },
    });
    await workers.start();
  } catch (error) {
    if (signals.stopping()) return;
    exitWithStartupError(error, logger);
  }
}

main().catch((error: unknown) => exitWithStartupError(error));

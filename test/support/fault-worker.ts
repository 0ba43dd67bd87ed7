// Test-only entry: the worker process composed as workers/src/main.ts composes it, with fault delays
// (server/test-support/fault-delays.ts) around its skill executors and its skill-execution handler. The delays come
// from the test's environment (FAULT_DELAY_BEFORE_SKILL_MS, FAULT_DELAY_AFTER_SKILL_MS), which production never reads.
import {
  composeJobHandlers,
  createLogger,
  exitWithStartupError,
  loadConfig,
  runProcess,
  startDomain,
  startEmitter,
  startInfrastructurePart,
  startSkillExecutionQueue,
  startWorkers,
} from '@lumibase/server/core';
import { delayAfterSkill, delayBeforeSkill } from '../../server/test-support/fault-delays.js';

const delay = (name: string) => Number(process.env[name] ?? '0');

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'lumibase-worker', format: config.LOG_FORMAT });
  await runProcess({
    logger,
    compose: async (lifecycle) => {
      const infrastructure = await startInfrastructurePart(lifecycle, {
        config,
        logger,
        embeddedMongo: false,
        processName: 'the fault worker',
      });
      const { mongo, redis, redisUrl } = infrastructure;
      const { publish, replies, disconnect } = await startEmitter(lifecycle, { config, logger, redis });
      const queue = await startSkillExecutionQueue(lifecycle, { config, logger, redisUrl });
      const built = await startDomain(lifecycle, { config, logger, mongo, redis, redisUrl, publish, disconnect });
      const domain = { ...built, executors: delayAfterSkill(delay('FAULT_DELAY_AFTER_SKILL_MS'))(built.executors) };
      const handlers = composeJobHandlers({ config, logger, redis, domain, replies });
      handlers.skillExecution = delayBeforeSkill(delay('FAULT_DELAY_BEFORE_SKILL_MS'))(handlers.skillExecution);
      await startWorkers(lifecycle, { config, logger, redisUrl, domain, queue, handlers });
    },
  });
}

main().catch((error: unknown) => exitWithStartupError(error));

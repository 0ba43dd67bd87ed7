// Composition root of a worker process (scale mode): config → Mongo → Redis → stores → processors.
import { createLogger, exitWithStartupError, loadConfig, startInfrastructure, stopOnSignals } from '@lumibase/server/core';
import { startWorkers } from './start-workers.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'lumibase-worker', format: config.LOG_FORMAT });
  // Handled from the first moment: a SIGTERM while the workers still start stops what runs.
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>> | undefined;
  let workers: Awaited<ReturnType<typeof startWorkers>> | undefined;
  const signals = stopOnSignals({
    logger,
    stop: async () => {
      await workers?.stop();
      await infrastructure?.stop();
    },
  });
  try {
    infrastructure = await startInfrastructure(config, logger, { embeddedMongo: false, processName: 'npm run start:worker' });
    workers = await startWorkers({ config, logger, infrastructure });
  } catch (error) {
    if (signals.stopping()) return;
    exitWithStartupError(error, logger);
  }
}

main().catch((error: unknown) => exitWithStartupError(error));

// Composition root of a worker process (scale mode): config → Mongo → Redis → stores → processors.
import { createLogger, exitWithStartupError, loadConfig, startInfrastructure, stopOnSignals } from '@lumibase/server/core';
import { startWorkers } from './start-workers.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'lumibase-worker', format: config.LOG_FORMAT });
  try {
    const infrastructure = await startInfrastructure(config, logger, { embeddedMongo: false, processName: 'npm run start:worker' });
    const workers = await startWorkers({ config, logger, infrastructure });
    stopOnSignals({
      logger,
      stop: async () => {
        await workers.stop();
        await infrastructure.stop();
      },
    });
  } catch (error) {
    exitWithStartupError(error, logger);
  }
}

main().catch((error: unknown) => exitWithStartupError(error));

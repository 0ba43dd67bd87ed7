// The worker process (scale mode): config → Mongo → Redis → composeWorkers (stores → processors).
import { composeWorkers, createLogger, exitWithStartupError, loadConfig, startInfrastructure, stopOnSignals } from '@lumibase/server/core';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'lumibase-worker', format: config.LOG_FORMAT });
  // Handled from the first moment: a SIGTERM while the workers still start stops what runs.
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
    infrastructure = await startInfrastructure(config, logger, { embeddedMongo: false, processName: 'npm run start:worker' });
    workers = composeWorkers({ config, logger, infrastructure });
    await workers.start();
  } catch (error) {
    if (signals.stopping()) return;
    exitWithStartupError(error, logger);
  }
}

main().catch((error: unknown) => exitWithStartupError(error));

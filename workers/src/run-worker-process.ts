// The worker process's life: config → Mongo → Redis → composeWorkers, stopped by SIGTERM from its first moment
// (a SIGTERM while the workers still start stops what runs). `parts` is the composition hook (tests only).
import {
  type CompositionParts,
  composeWorkers,
  createLogger,
  exitWithStartupError,
  loadConfig,
  startInfrastructure,
  stopOnSignals,
} from '@lumibase/server/core';

export async function runWorkerProcess({ processName, parts }: { processName: string; parts?: CompositionParts }): Promise<void> {
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
    infrastructure = await startInfrastructure(config, logger, { embeddedMongo: false, processName });
    workers = composeWorkers({ config, logger, infrastructure, ...(parts ? { parts } : {}) });
    await workers.start();
  } catch (error) {
    if (signals.stopping()) return;
    exitWithStartupError(error, logger);
  }
}

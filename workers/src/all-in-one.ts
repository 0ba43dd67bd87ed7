// The process of `npm start`: the server, the workers and the built Studio on one port, with embedded MongoDB and
// Redis when they are not configured: composeApi and composeWorkers over one infrastructure. It lives with the
// workers because they depend on the server package, not the other way round.
import {
  composeApi,
  composeWorkers,
  createLogger,
  exitWithStartupError,
  loadConfig,
  loadStudioHandler,
  startInfrastructure,
  stopOnSignals,
} from '@lumibase/server/core';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'lumibase', format: config.LOG_FORMAT });
  // Handled from the first moment: a SIGTERM while the workers still start (after the server listens) stops what runs.
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>> | undefined;
  let api: ReturnType<typeof composeApi> | undefined;
  let workers: ReturnType<typeof composeWorkers> | undefined;
  const signals = stopOnSignals({
    logger,
    stop: async () => {
      await api?.stop();
      await workers?.stop();
      await infrastructure?.stop();
    },
  });
  try {
    infrastructure = await startInfrastructure(config, logger);
    const studio = await loadStudioHandler();
    if (!studio) logger.warn('the Studio is not built (npm run build -w @lumibase/web); serving the API only');
    api = composeApi({ config, logger, infrastructure, ...(studio ? { studio } : {}) });
    workers = composeWorkers({ config, logger, infrastructure });
    const { composed } = await api.start();
    if (config.LUMIBASE_DEMO) await composed.createDemoSite();
    await workers.start();
  } catch (error) {
    if (signals.stopping()) return;
    exitWithStartupError(error, logger);
  }
}

main().catch((error: unknown) => exitWithStartupError(error));

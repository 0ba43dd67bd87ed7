// Composition root of `npm start`: one process runs the server, the workers and the built Studio on one port,
// with embedded MongoDB and Redis when they are not configured. It lives with the workers because they depend on
// the server package, not the other way round.
import {
  createLogger,
  exitWithStartupError,
  loadConfig,
  loadStudioHandler,
  startInfrastructure,
  startServer,
  stopOnSignals,
} from '@lumibase/server/core';
import { startWorkers } from './start-workers.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'lumibase', format: config.LOG_FORMAT });
  // Handled from the first moment: a SIGTERM while the workers still start (after the server listens) stops what runs.
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>> | undefined;
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let workers: Awaited<ReturnType<typeof startWorkers>> | undefined;
  const signals = stopOnSignals({
    logger,
    stop: async () => {
      await server?.stop();
      await workers?.stop();
      await infrastructure?.stop();
    },
  });
  try {
    infrastructure = await startInfrastructure(config, logger);
    const studio = await loadStudioHandler();
    if (!studio) logger.warn('the Studio is not built (npm run build -w @lumibase/web); serving the API only');
    server = await startServer({ config, logger, infrastructure, ...(studio ? { studio } : {}) });
    if (config.LUMIBASE_DEMO) await server.composed.createDemoSite();
    workers = await startWorkers({ config, logger, infrastructure });
  } catch (error) {
    if (signals.stopping()) return;
    exitWithStartupError(error, logger);
  }
}

main().catch((error: unknown) => exitWithStartupError(error));

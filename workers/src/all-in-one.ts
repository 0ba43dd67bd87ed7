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
  try {
    const infrastructure = await startInfrastructure(config, logger);
    const studio = await loadStudioHandler();
    if (!studio) logger.warn('the Studio is not built (npm run build -w @lumibase/web); serving the API only');
    const server = await startServer({ config, logger, infrastructure, ...(studio ? { studio } : {}) });
    if (config.LUMIBASE_DEMO) await server.composed.createDemoSite();
    const workers = await startWorkers({ config, logger, infrastructure });
    stopOnSignals({
      logger,
      stop: async () => {
        await server.stop();
        await workers.stop();
        await infrastructure.stop();
      },
    });
  } catch (error) {
    exitWithStartupError(error, logger);
  }
}

main().catch((error: unknown) => exitWithStartupError(error));

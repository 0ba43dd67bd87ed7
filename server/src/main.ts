// Composition root of a server process (scale mode): config → Mongo → Redis → stores → services → HTTP.
import { loadConfig } from './config.js';
import { startInfrastructure } from './infrastructure/start-infrastructure.js';
import { exitWithStartupError, stopOnSignals } from './lifecycle.js';
import { createLogger } from './logger.js';
import { startServer } from './start-server.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'lumibase-server', format: config.LOG_FORMAT });
  try {
    const infrastructure = await startInfrastructure(config, logger);
    const server = await startServer({ config, logger, infrastructure });
    stopOnSignals({
      logger,
      stop: async () => {
        await server.stop();
        await infrastructure.stop();
      },
    });
  } catch (error) {
    exitWithStartupError(error, logger);
  }
}

main().catch((error: unknown) => exitWithStartupError(error));

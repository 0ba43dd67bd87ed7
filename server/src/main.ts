// Composition root of a server process (scale mode): config → Mongo → Redis → stores → services → HTTP.
import { loadConfig } from './config.js';
import { startInfrastructure } from './infrastructure/start-infrastructure.js';
import { exitWithStartupError, stopOnSignals } from './lifecycle.js';
import { createLogger } from './logger.js';
import { startServer } from './start-server.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'lumibase-server', format: config.LOG_FORMAT });
  // Handled from the first moment: a SIGTERM right after the server listens stops what runs.
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>> | undefined;
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  const signals = stopOnSignals({
    logger,
    stop: async () => {
      await server?.stop();
      await infrastructure?.stop();
    },
  });
  try {
    infrastructure = await startInfrastructure(config, logger);
    server = await startServer({ config, logger, infrastructure });
  } catch (error) {
    if (signals.stopping()) return;
    exitWithStartupError(error, logger);
  }
}

main().catch((error: unknown) => exitWithStartupError(error));

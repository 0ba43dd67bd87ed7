// The server process (scale mode): config → Mongo → Redis → composeApi (stores → services → HTTP).
import { composeApi } from './compose-api.js';
import { loadConfig } from './config.js';
import { startInfrastructure } from './infrastructure/start-infrastructure.js';
import { exitWithStartupError, stopOnSignals } from './lifecycle.js';
import { createLogger } from './logger.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'lumibase-server', format: config.LOG_FORMAT });
  // Handled from the first moment: a SIGTERM right after the server listens stops what runs.
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>> | undefined;
  let api: ReturnType<typeof composeApi> | undefined;
  const signals = stopOnSignals({
    logger,
    stop: async () => {
      await api?.stop();
      await infrastructure?.stop();
    },
  });
  try {
    infrastructure = await startInfrastructure(config, logger);
    api = composeApi({ config, logger, infrastructure });
    await api.start();
  } catch (error) {
    if (signals.stopping()) return;
    exitWithStartupError(error, logger);
  }
}

main().catch((error: unknown) => exitWithStartupError(error));

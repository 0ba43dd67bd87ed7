// The server process (scale mode): config → Mongo → Redis → HTTP server and sockets → domain → API → listening.
import { listen, openHttpServer, startApi, startDomain, startInfrastructurePart, startSkillExecutionQueue } from './compose-process.js';
import { loadConfig } from './config.js';
import { exitWithStartupError, runProcess } from './lifecycle.js';
import { createLogger } from './logger.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'lumibase-server', format: config.LOG_FORMAT });

  await runProcess({
    logger,
    compose: async (lifecycle) => {
      const infrastructure = await startInfrastructurePart(lifecycle, { config, logger });
      const { mongo, redis, redisUrl, dependencies } = infrastructure;
      const { httpServer, sockets } = await openHttpServer(lifecycle, { config, logger, redis });
      const queue = await startSkillExecutionQueue(lifecycle, { config, logger, redisUrl });
      const domain = await startDomain(lifecycle, {
        config,
        logger,
        mongo,
        redis,
        redisUrl,
        publish: sockets.publish,
        disconnect: sockets.io,
      });
      await startApi(lifecycle, { config, logger, redis, redisUrl, domain, queue, dependencies, sockets: { server: sockets, httpServer } });
      await listen(lifecycle, { config, logger, httpServer });
    },
  });
}

main().catch((error: unknown) => exitWithStartupError(error));

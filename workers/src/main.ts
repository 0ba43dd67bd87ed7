// The worker process (scale mode): config → Mongo → Redis → emitter → domain → the queue table's workers and the
// periodic parts. Its site events and replies reach every server's sockets through the socket.io Redis emitter.
import {
  composeJobHandlers,
  createLogger,
  exitWithStartupError,
  loadConfig,
  runProcess,
  startDomain,
  startEmitter,
  startInfrastructurePart,
  startSkillExecutionQueue,
  startWorkers,
} from '@lumibase/server/core';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'lumibase-worker', format: config.LOG_FORMAT });

  await runProcess({
    logger,
    compose: async (lifecycle) => {
      const infrastructure = await startInfrastructurePart(lifecycle, {
        config,
        logger,
        embeddedMongo: false,
        processName: 'npm run start:worker',
      });
      const { mongo, redis, redisUrl } = infrastructure;
      const { publish, replies, disconnect } = await startEmitter(lifecycle, { config, logger, redis });
      const queue = await startSkillExecutionQueue(lifecycle, { config, logger, redisUrl });
      const domain = await startDomain(lifecycle, { config, logger, mongo, redis, redisUrl, publish, disconnect });
      const handlers = composeJobHandlers({ config, logger, redis, domain, replies });
      await startWorkers(lifecycle, { config, logger, redisUrl, domain, queue, handlers });
    },
  });
}

main().catch((error: unknown) => exitWithStartupError(error));

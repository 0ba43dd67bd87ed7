// The process of `npm start`: the server, the workers and the built Studio on one port, with embedded MongoDB and
// Redis when they are not configured: one domain, which the API and the workers' handlers are composed over. The
// server listens before the workers start. It lives with the workers because they depend on the server package,
// not the other way round.
import {
  composeJobHandlers,
  createLogger,
  exitWithStartupError,
  listen,
  loadConfig,
  loadStudioHandler,
  openHttpServer,
  runProcess,
  startApi,
  startDomain,
  startInfrastructurePart,
  startSkillExecutionQueue,
  startWorkers,
} from '@lumibase/server/core';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'lumibase', format: config.LOG_FORMAT });

  await runProcess({
    logger,
    compose: async (lifecycle) => {
      const infrastructure = await startInfrastructurePart(lifecycle, { config, logger });
      const { mongo, redis, redisUrl, dependencies } = infrastructure;
      const studio = await loadStudioHandler();
      if (!studio) logger.warn('the Studio is not built (npm run build -w @lumibase/web); serving the API only');
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
      const api = await startApi(lifecycle, {
        config,
        logger,
        redis,
        redisUrl,
        domain,
        queue,
        dependencies,
        sockets: { server: sockets, httpServer },
        ...(studio ? { studio } : {}),
      });
      await listen(lifecycle, { config, logger, httpServer });
      if (config.LUMIBASE_DEMO) await api.createDemoSite();
      // A continued run's reply goes to the requester's sockets through this process's own socket server.
      const handlers = composeJobHandlers({ config, logger, redis, domain, replies: sockets });
      await startWorkers(lifecycle, { config, logger, redisUrl, domain, queue, handlers });
    },
  });
}

main().catch((error: unknown) => exitWithStartupError(error));

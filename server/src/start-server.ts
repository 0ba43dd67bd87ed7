// Composition root of the API process: sockets → domain (its relay publishes through them) → skill-execution
// queue → Copilot → HTTP, on the configured port over already-connected infrastructure.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestHandler } from 'express';
import { createSkillExecutionQueue } from './approvals/skill-execution.queue.js';
import { type ComposedServer, composeServer } from './compose-server.js';
import { composeDomain } from './compose-domain.js';
import type { Config } from './config.js';
import type { Infrastructure } from './infrastructure/start-infrastructure.js';
import type { Logger } from './logger.js';
import { createSocketServer } from './realtime/socket-server.js';

export interface RunningServer {
  httpServer: Server;
  url: string;
  composed: ComposedServer;
  stop(): Promise<void>;
}

export async function startServer({
  config,
  logger,
  infrastructure,
  studio,
}: {
  config: Config;
  logger: Logger;
  infrastructure: Infrastructure;
  studio?: RequestHandler;
}): Promise<RunningServer> {
  const { mongo, redis, redisUrl, dependencies } = infrastructure;
  const httpServer = createServer();
  const sockets = await createSocketServer({ logger, redis, studioOrigin: config.STUDIO_ORIGIN, prefix: config.QUEUE_PREFIX });
  const domain = await composeDomain({ config, logger, mongo, redis, redisUrl, publish: sockets.publish });
  const queue = createSkillExecutionQueue({ redisUrl, prefix: config.QUEUE_PREFIX, logger });
  const composed = await composeServer({
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
  await new Promise<void>((listening, fail) => {
    httpServer.once('error', fail);
    httpServer.listen(config.PORT, config.HOST, () => listening());
  });
  const { port } = httpServer.address() as AddressInfo;
  const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
  logger.info({ url }, 'LumiBase server listening');
  return {
    httpServer,
    url,
    composed,
    async stop() {
      const closed = new Promise<void>((done) => httpServer.close(() => done()));
      await sockets.close();
      await queue.close();
      await composed.close();
      await domain.close();
      httpServer.closeAllConnections();
      await closed;
    },
  };
}

// Starts the HTTP server (API, health, sockets, Studio) on the configured port over already-connected infrastructure.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestHandler } from 'express';
import { composeServer } from './compose-server.js';
import type { Config } from './config.js';
import type { Infrastructure } from './infrastructure/start-infrastructure.js';
import type { Logger } from './logger.js';

export interface RunningServer {
  httpServer: Server;
  url: string;
  composed: Awaited<ReturnType<typeof composeServer>>;
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
  // The HTTP server comes first: socket.io attaches to it while the graph is composed.
  const httpServer = createServer();
  const composed = await composeServer({
    config,
    logger,
    mongo: infrastructure.mongo,
    redis: infrastructure.redis,
    redisUrl: infrastructure.redisUrl,
    dependencies: infrastructure.dependencies,
    httpServer,
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
      await composed.close();
      httpServer.closeAllConnections();
      await closed;
    },
  };
}

// Composition root of the API: sockets → domain (its relay publishes through them) → skill-execution queue →
// Copilot → HTTP, on the configured port over already-connected infrastructure. The server process (main.ts),
// the all-in-one process and the test server (testing/test-server.ts) all compose the API with it; tests replace
// parts through `parts` (compose-parts.ts) and nothing else.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestHandler } from 'express';
import { createSkillExecutionQueue } from './approvals/skill-execution.queue.js';
import type { CompositionParts } from './compose-parts.js';
import { type ComposedServer, composeServer } from './compose-server.js';
import { composeDomain } from './compose-domain.js';
import type { Config } from './config.js';
import type { Infrastructure } from './infrastructure/start-infrastructure.js';
import type { Logger } from './logger.js';
import { createSocketServer } from './realtime/socket-server.js';

export interface ComposeApiOptions {
  config: Config;
  logger: Logger;
  infrastructure: Pick<Infrastructure, 'mongo' | 'redis' | 'redisUrl' | 'dependencies'>;
  /** The built Studio, served on the same port (all-in-one). */
  studio?: RequestHandler;
  /** What a test composes differently (compose-parts.ts); production passes none. */
  parts?: CompositionParts;
}

export interface RunningApi {
  httpServer: Server;
  url: string;
  composed: ComposedServer;
}

export interface ComposedApi {
  /** Composes the API and listens on PORT/HOST; logs "LumiBase server listening" with its url. */
  start(): Promise<RunningApi>;
  /** Stops what has started so far (safe before, during and after start). */
  stop(): Promise<void>;
}

export function composeApi({ config, logger, infrastructure, studio, parts = {} }: ComposeApiOptions): ComposedApi {
  // What has started, stopped in this order (the reverse of start).
  const closers: { name: string; close: () => Promise<void> }[] = [];
  let httpServer: Server | undefined;

  async function start(): Promise<RunningApi> {
    const { mongo, redis, redisUrl, dependencies } = infrastructure;
    const server = createServer();
    httpServer = server;
    const sockets = await createSocketServer({ logger, redis, studioOrigin: config.STUDIO_ORIGIN, prefix: config.QUEUE_PREFIX });
    closers.push({ name: 'sockets', close: () => sockets.close() });
    const domain = await composeDomain({
      config,
      logger,
      mongo,
      redis,
      redisUrl,
      publish: sockets.publish,
      disconnect: sockets.io,
      ...(parts.scryptParameters ? { scryptParameters: parts.scryptParameters } : {}),
      ...(parts.embedder ? { embedder: parts.embedder } : {}),
    });
    const realQueue = createSkillExecutionQueue({ redisUrl, prefix: config.QUEUE_PREFIX, logger });
    closers.push({ name: 'queue', close: () => realQueue.close() });
    const queue = parts.queue ? parts.queue(realQueue) : realQueue;
    const executors = parts.executors ? parts.executors(domain.executors) : domain.executors;
    const composed = await composeServer({
      config,
      logger,
      redis,
      redisUrl,
      domain: { ...domain, executors },
      queue,
      dependencies,
      sockets: { server: sockets, httpServer: server },
      ...(studio ? { studio } : {}),
      ...(parts.clock ? { clock: parts.clock } : {}),
    });
    closers.push({ name: 'server', close: () => composed.close() });
    closers.push({ name: 'domain', close: () => domain.close() });
    await new Promise<void>((listening, fail) => {
      server.once('error', fail);
      server.listen(config.PORT, config.HOST, () => listening());
    });
    const { port } = server.address() as AddressInfo;
    const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
    logger.info({ url }, 'LumiBase server listening');
    return { httpServer: server, url, composed };
  }

  return {
    start,
    async stop() {
      const server = httpServer;
      const closed = server?.listening ? new Promise<void>((done) => server.close(() => done())) : undefined;
      for (const { close } of closers.splice(0)) await close();
      server?.closeAllConnections();
      await closed;
    },
  };
}

// The parts a process composes itself from, each started on the process's Lifecycle (stopped in reverse): its
// infrastructure, the skill-execution queue, the domain, and the API's HTTP server with its sockets and its
// listening (the workers' parts are in compose-workers.ts). The composition roots (server/src/main.ts,
// workers/src/main.ts, workers/src/all-in-one.ts) put them in order; tests compose the same parts with their own
// pieces.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RedisClientType } from 'redis';
import { createSkillExecutionQueue, type SkillExecutionQueue } from './approvals/skill-execution.queue.js';
import { composeDomain, type Domain, type DomainOptions } from './compose-domain.js';
import { type ComposedServer, type ComposeServerOptions, composeServer } from './compose-server.js';
import type { Config } from './config.js';
import { type Infrastructure, startInfrastructure } from './infrastructure/start-infrastructure.js';
import type { Lifecycle } from './lifecycle.js';
import type { Logger } from './logger.js';
import { createSocketServer, type SocketServer } from './realtime/socket-server.js';

/** MongoDB and Redis (embedded defaults for what is not configured): the first part, stopped last. */
export async function startInfrastructurePart(
  lifecycle: Lifecycle,
  { config, logger, ...options }: { config: Config; logger: Logger } & NonNullable<Parameters<typeof startInfrastructure>[2]>,
): Promise<Infrastructure> {
  const infrastructure = await startInfrastructure(config, logger, options);
  await lifecycle.start({ name: 'infrastructure', stop: () => infrastructure.stop() });
  return infrastructure;
}

/** Where decisions add approved skills' jobs (the API), and the reconciler re-adds them (the workers). */
export async function startSkillExecutionQueue(
  lifecycle: Lifecycle,
  { config, logger, redisUrl }: { config: Pick<Config, 'QUEUE_PREFIX'>; logger: Logger; redisUrl: string },
): Promise<SkillExecutionQueue> {
  const queue = createSkillExecutionQueue({ redisUrl, prefix: config.QUEUE_PREFIX, logger });
  await lifecycle.start({ name: 'skill-execution queue', stop: () => queue.close() });
  return queue;
}

/** The domain, built once per process; closed after every part that uses it (its relay's last events go out first). */
export async function startDomain(lifecycle: Lifecycle, options: DomainOptions): Promise<Domain> {
  const domain = await composeDomain(options);
  await lifecycle.start({ name: 'domain', stop: () => domain.close() });
  return domain;
}

/**
 * The API's HTTP server and its sockets (the domain's relay publishes through them, so they start before it).
 * Nothing is served until `listen`; stopping drops the connections still open, after everything that uses them.
 */
export async function openHttpServer(
  lifecycle: Lifecycle,
  { config, logger, redis }: { config: Pick<Config, 'STUDIO_ORIGIN' | 'QUEUE_PREFIX'>; logger: Logger; redis: RedisClientType },
): Promise<{ httpServer: Server; sockets: SocketServer }> {
  const httpServer = createServer();
  await lifecycle.start({
    name: 'http server',
    stop: async () => {
      const closed = httpServer.listening ? new Promise<void>((done) => httpServer.close(() => done())) : undefined;
      httpServer.closeAllConnections();
      await closed;
    },
  });
  const sockets = await createSocketServer({ logger, redis, studioOrigin: config.STUDIO_ORIGIN, prefix: config.QUEUE_PREFIX });
  await lifecycle.start({ name: 'sockets', stop: () => sockets.close() });
  return { httpServer, sockets };
}

/** The API over the domain (composeServer), served on the HTTP server and its sockets. */
export async function startApi(lifecycle: Lifecycle, options: ComposeServerOptions): Promise<ComposedServer> {
  const composed = await composeServer(options);
  await lifecycle.start({ name: 'api', stop: () => composed.close() });
  return composed;
}

/**
 * Listens on PORT/HOST and logs "LumiBase server listening" with its url. Stopping stops accepting connections;
 * the open ones are served until the HTTP server part stops.
 */
export async function listen(
  lifecycle: Lifecycle,
  { config, logger, httpServer }: { config: Pick<Config, 'PORT' | 'HOST'>; logger: Logger; httpServer: Server },
): Promise<string> {
  await lifecycle.start({
    name: 'listening',
    start: () =>
      new Promise<void>((listening, fail) => {
        httpServer.once('error', fail);
        httpServer.listen(config.PORT, config.HOST, () => listening());
      }),
    stop: () => void httpServer.close(),
  });
  const { port } = httpServer.address() as AddressInfo;
  const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
  logger.info({ url }, 'LumiBase server listening');
  return url;
}

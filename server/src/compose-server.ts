// The server's object graph: domain (stores → services → executors) → Copilot → HTTP → sockets.
// Called by main.ts, the all-in-one entry and route tests.
import type { Server as HttpServer } from 'node:http';
import type { RequestHandler } from 'express';
import type { Connection } from 'mongoose';
import type { RedisClientType } from 'redis';
import { type CopilotOverrides, composeCopilot } from './compose-copilot.js';
import { composeDomain } from './compose-domain.js';
import type { Config } from './config.js';
import { type SiteRouter, createApiRouter } from './http/api.router.js';
import { createHttpApp } from './http/app.js';
import type { DependencyCheck } from './http/health.router.js';
import type { Logger } from './logger.js';
import { QueuedApprovalExecutor } from './approvals/queued-approval-executor.js';
import { createSkillExecutionQueue, type SkillExecutionQueue } from './approvals/skill-execution.queue.js';
import { createSocketAuthenticator } from './realtime/authenticate-socket.js';
import { createSocketServer, type SocketServer } from './realtime/socket-server.js';
import { bootstrapSuperadmin, createDemoSite } from './services/index.js';

export interface ServerInfrastructure {
  config: Config;
  logger: Logger;
  /** mongoose connection to the app's database. */
  mongo: Connection;
  /** node-redis client (rate limits, socket.io adapter). */
  redis: RedisClientType;
  dependencies: DependencyCheck[];
  studio?: RequestHandler;
  /** With an HTTP server, socket.io is attached to it and relayed events are pushed to the sites' sockets. */
  httpServer?: HttpServer;
  /** With a Redis URL, approved skills run on the BullMQ workers; without one (route tests) they run inline. */
  redisUrl?: string;
  /**
   * scrypt cost parameters; production leaves it unset (the hasher's default). Tests lower N,
   * since a suite that signs in hundreds of times would otherwise spend minutes hashing.
   */
  scryptParameters?: { N: number; r: number; p: number };
  /** Tests replace the Copilot's planner, executors or approval executor here; production leaves it unset. */
  copilot?: CopilotOverrides;
}

export async function composeServer(infrastructure: ServerInfrastructure) {
  const { config, logger, mongo, redis, dependencies, studio, httpServer, redisUrl } = infrastructure;
  const domain = await composeDomain({
    config,
    logger,
    mongo,
    redis,
    ...(infrastructure.scryptParameters ? { scryptParameters: infrastructure.scryptParameters } : {}),
  });
  const { stores, services, hasher } = domain;
  await bootstrapSuperadmin({ users: stores.users, hasher, email: config.LUMIBASE_ADMIN_EMAIL, password: config.LUMIBASE_ADMIN_PASSWORD });

  const queue: SkillExecutionQueue | undefined = redisUrl
    ? createSkillExecutionQueue({ redisUrl, prefix: config.QUEUE_PREFIX, logger })
    : undefined;
  const approvalExecutor = queue
    ? new QueuedApprovalExecutor({ queue, stores: domain.aiStores, waitMs: config.DECIDE_WAIT_MS, logger })
    : undefined;
  // The Copilot's routers (`/ai`) join here, built over the domain, and act in the X-Site-Id site.
  const copilot = await composeCopilot({
    config,
    logger,
    redis,
    domain,
    ...(approvalExecutor ? { approvalExecutor } : {}),
    ...(infrastructure.copilot ? { overrides: infrastructure.copilot } : {}),
  });
  const siteRouters: SiteRouter[] = [copilot.siteRouter];
  const api = createApiRouter({ services, studioOrigin: config.STUDIO_ORIGIN, siteRouters });
  const app = createHttpApp({ logger, dependencies, api, ...(studio ? { studio } : {}) });

  let sockets: SocketServer | undefined;
  if (httpServer) {
    // The app must be the server's request listener before socket.io attaches: socket.io then takes
    // /socket.io/ requests and hands every other one to the app (otherwise both would answer them).
    httpServer.on('request', app);
    sockets = await createSocketServer({
      httpServer,
      logger,
      authenticate: createSocketAuthenticator(services),
      eventLog: domain.eventLog.forSite,
      redis,
    });
    domain.relay.setPublisher(sockets.publish);
    const live = sockets;
    services.events.on('session-revoked', ({ sessionId }) => live.disconnectSession(sessionId));
    services.events.on('membership-removed', ({ siteId, userId }) => live.disconnectMember(siteId, userId));
  }

  return {
    app,
    domain,
    stores,
    services,
    copilot,
    sockets,
    /** The all-in-one entry calls this when LUMIBASE_DEMO is true; it does nothing unless the database has no site. */
    createDemoSite: () => createDemoSite({ services, stores }),
    async close(): Promise<void> {
      await sockets?.close();
      await queue?.close();
    },
  };
}

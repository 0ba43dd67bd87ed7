// The API's object graph over a composed domain: Copilot (gate, decider over the skill-execution queue) → HTTP → sockets.
// The server and all-in-one processes start it (compose-process.ts startApi), and so does the test server.
import type { Server as HttpServer } from 'node:http';
import type { RequestHandler } from 'express';
import type { RedisClientType } from 'redis';
import { QueuedApprovalExecutor } from './approvals/queued-approval-executor.js';
import { SettledApprovals } from './approvals/settled-approvals.js';
import type { SkillExecutionQueue } from './approvals/skill-execution.queue.js';
import { composeCopilot } from './compose-copilot.js';
import type { Domain } from './compose-domain.js';
import type { Config } from './config.js';
import { type SiteRouter, createApiRouter } from './http/api.router.js';
import { createRevisionsRouter } from './http/revisions.router.js';
import { createTrashRouter } from './http/trash.router.js';
import { createSearchRouter } from './http/search.router.js';
import { createHttpApp } from './http/app.js';
import { createQueueDashboard } from './http/queue-dashboard.js';
import { sessionCookie } from './http/session-cookie.js';
import { createWebhooksRouter } from './http/webhooks.router.js';
import { composeMcp } from './mcp/compose-mcp.js';
import { QUEUE_NAMES } from './infrastructure/queue-table.js';
import { WebhooksService } from './services/webhooks.service.js';
import type { DependencyCheck } from './infrastructure/dependency-check.js';
import type { Logger } from './logger.js';
import { createSocketAuthenticator } from './realtime/authenticate-socket.js';
import type { SocketServer } from './realtime/socket-server.js';
import { bootstrapSuperadmin, createDemoSite } from './services/index.js';
import { deploymentKey } from './store/deployment-key.store.js';
import { IdempotencyStore } from './store/idempotency.store.js';

export interface ComposeServerOptions {
  config: Config;
  logger: Logger;
  /** node-redis client (rate limits). */
  redis: RedisClientType;
  /** For BullMQ connections (the queue dashboard). */
  redisUrl: string;
  domain: Domain;
  /** Where decisions send approved skills; the workers run them. */
  queue: SkillExecutionQueue;
  dependencies: DependencyCheck[];
  studio?: RequestHandler;
  /** socket.io, served on `httpServer` next to the app; the domain's relay already publishes through it. */
  sockets: { server: SocketServer; httpServer: HttpServer };
}

export async function composeServer({
  config,
  logger,
  redis,
  redisUrl,
  domain,
  queue,
  dependencies,
  studio,
  sockets,
}: ComposeServerOptions) {
  const { stores, services, hasher } = domain;
  await bootstrapSuperadmin({ users: stores.users, hasher, email: config.LUMIBASE_ADMIN_EMAIL, password: config.LUMIBASE_ADMIN_PASSWORD });

  // A decision hears its job's outcome as the approval's own event, as the sockets do (without sockets it reads).
  const settlements = new SettledApprovals();
  // Every event this process hears moves its idea of the site's head, so its own next append guesses the seq after it.
  const stopObserving = sockets.server.observe((event) => {
    settlements.observe(event);
    domain.eventLog.heard(event.payload.siteId, event.payload.seq);
  });
  const approvalExecutor = new QueuedApprovalExecutor({
    queue,
    stores: domain.aiStores,
    settlements,
    waitMs: config.DECIDE_WAIT_MS,
    knownSeq: domain.eventLog.knownSeq,
    logger,
  });
  // The Copilot's routers (`/ai`) join here, built over the domain, and act in the X-Site-Id site.
  const copilot = await composeCopilot({
    config,
    logger,
    redis,
    domain,
    approvalExecutor,
    progress: { send: (sessionId, event) => sockets.server.sendCopilotProgress(sessionId, event) },
  });
  const webhooks = new WebhooksService({
    webhooks: domain.webhooks,
    queue: domain.webhooksQueue,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
  });
  const siteRouters: SiteRouter[] = [
    // Before /ai, so that /ai/skills passes tenancy once.
    copilot.skillsRouter,
    copilot.noticesRouter,
    copilot.siteRouter,
    createRevisionsRouter({ revisions: domain.revisions }),
    createTrashRouter({ trash: domain.trash }),
    createWebhooksRouter({ webhooks }),
    createSearchRouter({ search: domain.embeddings.search, rateLimiter: copilot.modelCalls }),
  ];
  const idempotencyStore = new IdempotencyStore(stores.models.idempotency, config.IDEMPOTENCY_RETENTION_SECONDS * 1000);
  const cookie = sessionCookie(config.PUBLIC_URL);
  const api = createApiRouter({
    services,
    studioOrigin: config.STUDIO_ORIGIN,
    cookie,
    idempotency: {
      store: idempotencyStore,
      leaseMs: config.IDEMPOTENCY_LEASE_SECONDS * 1000,
      fingerprintKey: config.IDEMPOTENCY_KEY ?? (await deploymentKey(stores.models.idempotency.db, 'idempotency-fingerprints')),
    },
    siteRouters,
    copilot: { provider: copilot.provider },
  });
  const queueDashboard = createQueueDashboard({
    auth: services.auth,
    studioOrigin: config.STUDIO_ORIGIN,
    cookie,
    redisUrl,
    prefix: config.QUEUE_PREFIX,
    queueNames: QUEUE_NAMES,
  });
  const app = createHttpApp({
    logger,
    dependencies,
    api,
    studioOrigin: config.STUDIO_ORIGIN,
    admin: queueDashboard.router,
    mcp: composeMcp({ config, logger, redis, domain, copilot }),
    ...(studio ? { studio } : {}),
  });

  const { server, httpServer } = sockets;
  httpServer.on('request', app);
  server.serve({
    httpServer,
    authenticate: createSocketAuthenticator({ ...services, studioOrigin: config.STUDIO_ORIGIN, cookie }),
    eventLog: domain.eventLog.forSite,
    replayMaxEvents: config.REPLAY_MAX_EVENTS,
  });

  return {
    app,
    domain,
    stores,
    services,
    copilot,
    /** The all-in-one entry calls this when LUMIBASE_DEMO is true; it does nothing unless the database has no site. */
    createDemoSite: () => createDemoSite({ services, stores }),
    /** Closes what the server opened beside the domain (the dashboard's queues). */
    close: () => {
      stopObserving();
      return queueDashboard.close();
    },
  };
}

export type ComposedServer = Awaited<ReturnType<typeof composeServer>>;

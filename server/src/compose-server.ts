// The server's object graph: stores → services → HTTP. Called by main.ts and the all-in-one entry.
import type { RequestHandler } from 'express';
import type { Connection } from 'mongoose';
import type { RedisClientType } from 'redis';
import { type CopilotOverrides, composeCopilot } from './compose-copilot.js';
import type { Config } from './config.js';
import { type SiteRouter, createApiRouter } from './http/api.router.js';
import { createHttpApp } from './http/app.js';
import type { DependencyCheck } from './http/health.router.js';
import type { Logger } from './logger.js';
import { PasswordHasher } from './security/password-hasher.js';
import { bootstrapSuperadmin, createDemoSite, createServices } from './services/index.js';
import { DomainEvents } from './services/domain-events.js';
import { createStores } from './store/stores.js';
import { createEventLog } from './realtime/event-log.js';
import { OutboxRelay } from './realtime/outbox.js';

export interface ServerInfrastructure {
  config: Config;
  logger: Logger;
  /** mongoose connection to the app's database. */
  mongo: Connection;
  /** node-redis client (rate limits, socket.io adapter). */
  redis: RedisClientType;
  dependencies: DependencyCheck[];
  studio?: RequestHandler;
  /**
   * scrypt cost parameters; production leaves it unset (the hasher's default). Tests lower N,
   * since a suite that signs in hundreds of times would otherwise spend minutes hashing.
   */
  scryptParameters?: { N: number; r: number; p: number };
  /** Tests replace the Copilot's planner, executors or approval executor here; production leaves it unset. */
  copilot?: CopilotOverrides;
}

export async function composeServer(infrastructure: ServerInfrastructure) {
  const { config, logger, mongo, redis, dependencies, studio } = infrastructure;
  const eventLog = await createEventLog(mongo, { retentionDays: config.EVENT_RETENTION_DAYS });
  // Events are published once the socket server is up; until then they wait in the log for replay.
  const relay = new OutboxRelay({ eventLog: eventLog.forSite, publish: () => {}, logger });
  const stores = await createStores(mongo, { relay });
  const events = new DomainEvents((error, event) => logger.error({ err: error, event }, 'domain event listener failed'));
  const hasher = new PasswordHasher(infrastructure.scryptParameters);
  const services = createServices({
    stores,
    redis,
    redisPrefix: `${config.QUEUE_PREFIX}:`,
    sessionTtlHours: config.SESSION_TTL_HOURS,
    hasher,
    events,
  });
  await bootstrapSuperadmin({ users: stores.users, hasher, email: config.LUMIBASE_ADMIN_EMAIL, password: config.LUMIBASE_ADMIN_PASSWORD });

  // The Copilot's routers (`/ai`) join here, built over `services`, and act in the X-Site-Id site.
  const overrides = infrastructure.copilot;
  const copilot = await composeCopilot({ config, logger, mongo, redis, services, ...(overrides ? { overrides } : {}) });
  const siteRouters: SiteRouter[] = [copilot.siteRouter];
  const api = createApiRouter({ services, studioOrigin: config.STUDIO_ORIGIN, siteRouters });
  const app = createHttpApp({ logger, dependencies, api, ...(studio ? { studio } : {}) });
  return {
    app,
    stores,
    services,
    copilot,
    /** The all-in-one entry calls this when LUMIBASE_DEMO is true; it does nothing unless the database has no site. */
    createDemoSite: () => createDemoSite({ services, stores }),
  };
}

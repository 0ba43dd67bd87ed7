// The MCP endpoint over the composed server: the API's auth and tenancy, the Copilot's gate, the site's stores.
import type { RedisClientType } from 'redis';
import type { Copilot } from '../compose-copilot.js';
import type { Domain } from '../compose-domain.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { redisMcpSessions } from './mcp-sessions.js';
import { createMcpRouter, orUndefined } from './mcp.router.js';

export interface ComposeMcpOptions {
  config: Pick<Config, 'STUDIO_ORIGIN' | 'QUEUE_PREFIX'>;
  logger: Logger;
  redis: RedisClientType;
  domain: Pick<Domain, 'services' | 'stores' | 'aiStores'>;
  copilot: Pick<Copilot, 'harness' | 'approvals' | 'modelCalls'>;
}

export function composeMcp({ config, logger, redis, domain, copilot }: ComposeMcpOptions) {
  return createMcpRouter({
    auth: domain.services.auth,
    access: domain.services.access,
    studioOrigin: config.STUDIO_ORIGIN,
    harness: copilot.harness,
    // Model-calling skills count against the same per-user limit as /ai/chat, /ai/skills and /ai/search.
    modelCalls: copilot.modelCalls,
    sessions: redisMcpSessions(redis, config.QUEUE_PREFIX),
    logger,
    siteFor: (siteId) => ({
      policy: () => domain.aiStores.forSite(siteId).policy.get(),
      approval: (id) => orUndefined(copilot.approvals.get(siteId, id)),
      collections: async () =>
        (await domain.stores.forSite(siteId).collections.listAll()).map(({ name, label, fields }) => ({
          name,
          ...(label ? { label } : {}),
          fields,
        })),
    }),
  });
}

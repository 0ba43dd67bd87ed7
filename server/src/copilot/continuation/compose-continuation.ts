// The workers' part for continued runs: the same gate and planner as the API's chat turns, acting as the requester.
import type { RedisClientType } from 'redis';
import type { HarnessActor } from '../../gate/ai-secure-harness.js';
import { composeHarness } from '../../compose-copilot.js';
import type { Domain } from '../../compose-domain.js';
import type { Config } from '../../config.js';
import { createPlanner } from '../../llm/create-planner.js';
import type { Logger } from '../../logger.js';
import { ChatRateLimiter } from '../chat-rate-limiter.js';
import { ContinueRunService, type CopilotReplySink } from '../continue-run.js';
import { mayCallModelWithin } from '../may-call-model.js';

export function composeContinuation({
  config,
  logger,
  redis,
  domain,
  replies,
  clock,
}: {
  config: Config;
  logger: Logger;
  redis: RedisClientType;
  domain: Pick<Domain, 'aiStores' | 'executors' | 'revisions' | 'approvalTargets' | 'services' | 'stores'>;
  replies: CopilotReplySink;
  clock?: (() => Date) | undefined;
}): ContinueRunService {
  const planner = createPlanner(config, { retry: { logger } });
  return new ContinueRunService({
    stores: domain.aiStores,
    harness: composeHarness({ config, logger, redis, domain, clock }),
    planner,
    replies,
    maxSteps: planner.provider === 'echo' ? 1 : config.LLM_MAX_STEPS,
    // The requester's model calls, counted in the same Redis window as the API's (compose-copilot.ts: same prefix).
    mayCallModel: mayCallModelWithin(
      new ChatRateLimiter({ redis, prefix: `${config.QUEUE_PREFIX}:`, limitPerMinute: config.CHAT_RATE_LIMIT_PER_MINUTE }),
    ),
    siteSchema: async (siteId) => (await domain.stores.forSite(siteId).collections.listAll()).map(({ name, fields }) => ({ name, fields })),
    // As the requester is now: one who left the site (or lost access) gets no continuation.
    actorFor: async (siteId, userId): Promise<HarnessActor | undefined> => {
      try {
        const { user, capabilities } = await domain.services.access.resolveUser(userId, siteId);
        return { id: user.id, name: user.name, email: user.email, capabilities, isSuperadmin: user.isSuperadmin };
      } catch {
        return undefined;
      }
    },
    ...(clock ? { clock } : {}),
  });
}

// The Copilot's part of the server's object graph: stores → executors → harness, decider → services → /ai router.
import type { RedisClientType } from 'redis';
import type { Domain } from './compose-domain.js';
import type { Config } from './config.js';
import { AISecureHarness } from './gate/ai-secure-harness.js';
import { CountedSkillLimits } from './gate/skill-limits.js';
import type { ApprovalExecutor } from './approvals/approval-executor.js';
import { ApprovalDecider } from './approvals/decide-approval.js';
import { ApprovalEditor } from './approvals/edit-approval.js';
import { createAiRouter } from './http/ai.router.js';
import { createAiSkillsRouter } from './http/ai-skills.router.js';
import { createAiNoticesRouter } from './http/ai-notices.router.js';
import { createPlanner } from './llm/create-planner.js';
import type { Logger } from './logger.js';
import type { CopilotProgressSink } from './copilot/chat.service.js';
import {
  ApprovalsService,
  AuditService,
  ChatRateLimiter,
  ChatService,
  ConversationsService,
  PolicyService,
  RunSkillService,
} from './copilot/index.js';

export interface ComposeCopilotOptions {
  config: Pick<Config, 'QUEUE_PREFIX' | 'CHAT_RATE_LIMIT_PER_MINUTE' | 'LLM_MAX_STEPS' | 'APPROVAL_TTL_SECONDS'> &
    Parameters<typeof createPlanner>[0];
  logger: Logger;
  redis: RedisClientType;
  domain: Pick<Domain, 'aiStores' | 'executors' | 'eventLog' | 'stores' | 'revisions' | 'approvalTargets'>;
  /** The caller's sockets for copilot-progress (the socket server); absent, turns run without progress events. */
  progress?: CopilotProgressSink;
  /** How approved skills run: through the skill-execution queue (QueuedApprovalExecutor). */
  approvalExecutor: ApprovalExecutor;
  /** What the gate and the decider take as now; unset, the system clock. */
  clock?: () => Date;
}

/** The gate every Copilot call goes through: the API's chat turns and the workers' continued runs build the same one. */
export function composeHarness({
  config,
  logger,
  redis,
  domain,
  clock,
}: {
  config: Pick<Config, 'APPROVAL_TTL_SECONDS' | 'QUEUE_PREFIX'>;
  logger: Logger;
  redis: RedisClientType;
  domain: Pick<Domain, 'aiStores' | 'executors' | 'revisions' | 'approvalTargets'>;
  clock?: (() => Date) | undefined;
}): AISecureHarness {
  return new AISecureHarness({
    stores: domain.aiStores,
    executors: domain.executors,
    undoFor: (siteId, operationId) => domain.revisions.undoFor(siteId, operationId),
    reportError: (error, context) => logger.error({ err: error, ...context }, 'skill executor failed'),
    targets: domain.approvalTargets,
    approvalTtlMs: config.APPROVAL_TTL_SECONDS * 1000,
    // The policy's hourly limits, counted in Redis: every server (and the MCP door) shares one count.
    limits: CountedSkillLimits.redis(redis, `${config.QUEUE_PREFIX}:`),
    ...(clock ? { clock } : {}),
  });
}

export async function composeCopilot({ config, logger, redis, domain, approvalExecutor, progress, clock }: ComposeCopilotOptions) {
  const stores = domain.aiStores;
  const executors = domain.executors;
  const harness = composeHarness({ config, logger, redis, domain, clock });
  const decider = new ApprovalDecider({ stores, executor: approvalExecutor, targets: domain.approvalTargets, ...(clock ? { clock } : {}) });

  const planner = createPlanner(config, {
    onFallback: (reason) => logger.warn({ provider: config.LLM_PROVIDER }, reason),
    retry: { logger },
  });
  // One per-user count of model and embedding calls for /ai/chat, /ai/skills/:name and /ai/search, in Redis.
  const modelCalls = new ChatRateLimiter({ redis, prefix: `${config.QUEUE_PREFIX}:`, limitPerMinute: config.CHAT_RATE_LIMIT_PER_MINUTE });
  const chat = new ChatService({
    stores,
    harness,
    planner,
    rateLimiter: modelCalls,
    maxSteps: config.LLM_MAX_STEPS,
    siteSchema: async (siteId) => (await domain.stores.forSite(siteId).collections.listAll()).map(({ name, fields }) => ({ name, fields })),
    ...(progress ? { progress } : {}),
    reportError: (error) => logger.error({ err: error, provider: planner.provider }, 'planner failed'),
  });
  const editor = new ApprovalEditor({ stores, targets: domain.approvalTargets, ...(clock ? { clock } : {}) });
  const approvals = new ApprovalsService({ stores, decider, editor, currentSeq: (siteId) => domain.eventLog.forSite(siteId).currentSeq() });
  const siteRouter = createAiRouter({
    chat,
    approvals,
    conversations: new ConversationsService(stores),
    audit: new AuditService(stores),
    policy: new PolicyService(stores),
  });
  // The Studio's direct runs of safe skills (Suggest a field, Assist): the same gate, no model.
  const skillsRouter = createAiSkillsRouter({ skills: new RunSkillService({ harness, rateLimiter: modelCalls }) });
  // The Approvals page's "Recent Copilot actions": the notices of `warn`-tier calls.
  const noticesRouter = createAiNoticesRouter({
    notices: (siteId) => stores.forSite(siteId).notices,
    currentSeq: (siteId) => domain.eventLog.forSite(siteId).currentSeq(),
  });
  return {
    stores,
    executors,
    harness,
    decider,
    chat,
    approvals,
    siteRouter,
    skillsRouter,
    noticesRouter,
    modelCalls,
    provider: planner.provider as string,
  };
}

export type Copilot = Awaited<ReturnType<typeof composeCopilot>>;

// The Copilot's part of the server's object graph: stores → executors → harness, decider → services → /ai router.
import type { RedisClientType } from 'redis';
import type { Domain } from './compose-domain.js';
import type { Config } from './config.js';
import { AISecureHarness } from './harness/ai-secure-harness.js';
import { type ApprovalExecutor, InlineApprovalExecutor, type InlineApprovalExecutorOptions } from './approvals/approval-executor.js';
import { ApprovalDecider } from './approvals/decide-approval.js';
import type { SkillExecutors } from './harness/skill-executors.js';
import { createAiRouter } from './http/ai.router.js';
import type { SiteRouter } from './http/api.router.js';
import { createPlanner } from './llm/create-planner.js';
import type { Planner } from './llm/planner.js';
import type { Logger } from './logger.js';
import {
  ApprovalsService,
  AuditService,
  ChatRateLimiter,
  ChatService,
  ConversationsService,
  type CurrentSeq,
} from './services/copilot/index.js';

/** Seams for tests and for the next issue (BullMQ executor, event log seq). */
export interface CopilotOverrides {
  planner?: Planner;
  /** Wraps the real executors (tests count runs through it). */
  executors?: (real: SkillExecutors) => SkillExecutors;
  /** Replaces the inline executor; it receives what the inline one would have been built from. */
  approvalExecutor?: (options: InlineApprovalExecutorOptions) => ApprovalExecutor;
  currentSeq?: CurrentSeq;
}

export interface ComposeCopilotOptions {
  config: Pick<Config, 'QUEUE_PREFIX' | 'CHAT_RATE_LIMIT_PER_MINUTE' | 'DECIDE_WAIT_MS'> & Parameters<typeof createPlanner>[0];
  logger: Logger;
  redis: RedisClientType;
  domain: Pick<Domain, 'aiStores' | 'executors' | 'eventLog'>;
  /** How approved skills run in production (the BullMQ-backed executor); unset runs them inline. */
  approvalExecutor?: ApprovalExecutor;
  overrides?: CopilotOverrides;
}

export async function composeCopilot({ config, logger, redis, domain, approvalExecutor, overrides = {} }: ComposeCopilotOptions) {
  const stores = domain.aiStores;
  const reportError = (error: unknown, context: { skillName: string; siteId: string }) =>
    logger.error({ err: error, ...context }, 'skill executor failed');

  const executors = overrides.executors ? overrides.executors(domain.executors) : domain.executors;
  const harness = new AISecureHarness({ stores, executors, reportError });
  const inline: InlineApprovalExecutorOptions = { stores, executors, reportError, waitMs: config.DECIDE_WAIT_MS };
  const executor = overrides.approvalExecutor
    ? overrides.approvalExecutor(inline)
    : (approvalExecutor ?? new InlineApprovalExecutor(inline));
  const decider = new ApprovalDecider({ stores, executor });

  const planner =
    overrides.planner ?? createPlanner(config, { onFallback: (reason) => logger.warn({ provider: config.LLM_PROVIDER }, reason) });
  const chat = new ChatService({
    stores,
    harness,
    planner,
    rateLimiter: new ChatRateLimiter({ redis, prefix: `${config.QUEUE_PREFIX}:`, limitPerMinute: config.CHAT_RATE_LIMIT_PER_MINUTE }),
    reportError: (error) => logger.error({ err: error, provider: planner.provider }, 'planner failed'),
  });
  const currentSeq = overrides.currentSeq ?? ((siteId: string) => domain.eventLog.forSite(siteId).currentSeq());
  const approvals = new ApprovalsService({ stores, decider, currentSeq });
  const router = createAiRouter({ chat, approvals, conversations: new ConversationsService(stores), audit: new AuditService(stores) });
  const siteRouter: SiteRouter = { path: '/ai', router };
  return { stores, executors, harness, decider, chat, approvals, siteRouter };
}

export type Copilot = Awaited<ReturnType<typeof composeCopilot>>;

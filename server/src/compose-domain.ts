// The domain every process shares: event log and outbox relay → stores → services → skill executors.
// Built once per process (compose-process.ts startDomain): the API (compose-server.ts) and the workers' handlers
// (compose-workers.ts) are composed over the same one.
import type { SiteEvent } from '@lumibase/shared';
import type { Connection } from 'mongoose';
import type { RedisClientType } from 'redis';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { createEventLog } from './store/event-log.js';
import { OutboxRelay } from './store/outbox.js';
import { PasswordHasher } from './security/password-hasher.js';
import { createServices } from './services/index.js';
import { RevisionsService } from './services/revisions.service.js';
import { createStepUndoer } from './approvals/undo-step.js';
import { TrashService } from './services/trash.service.js';
import { DomainEvents } from './services/domain-events.js';
import { disconnectWhenAccessEnds, type RoomDisconnector } from './realtime/disconnect-when-access-ends.js';
import { createSkillExecutors } from './skills/index.js';
import { AiStores } from './store/ai/ai-stores.js';
import { StoreApprovalTargets } from './skills/store-approval-targets.js';
import { createStores } from './store/stores.js';
import { pendingDeliveriesBefore, registerWebhookModels, WebhookStore } from './store/webhook.store.js';
import { createWebhooksSubscriber } from './webhooks/webhooks-subscriber.js';
import { createEmbeddingsSubscriber } from './retrieval/embeddings/embeddings-subscriber.js';
import { toSubscribers } from './store/outbox-subscriber.js';
import { createTargetWatchSubscriber, type TargetWatchDependencies } from './approvals/target-watch.js';
import { createWebhooksQueue } from './webhooks/webhooks.queue.js';
import { createContinuationQueue } from './copilot/continuation/continuation.queue.js';
import { composeEmbeddings, type EmbeddingsConfig, openEmbeddingsQueueing } from './compose-embeddings.js';
import type { Embedder } from './retrieval/embeddings/embedder.js';
import { createPlanner, type PlannerConfig } from './llm/create-planner.js';
import { jsonModelOf } from './retrieval/rag/index.js';
import { migrateAuditChainAtStart } from './store/ai/audit-chain-migration.js';
import { RedisPolicyVersions } from './store/ai/policy-versions.js';

export interface DomainOptions {
  config: Pick<Config, 'EVENT_RETENTION_DAYS' | 'QUEUE_PREFIX' | 'SESSION_TTL_HOURS' | 'TRASH_RETENTION_DAYS'> &
    EmbeddingsConfig &
    PlannerConfig;
  /** For BullMQ producers (the webhooks queue). */
  redisUrl: string;
  logger: Logger;
  mongo: Connection;
  redis: RedisClientType;
  /** Where relayed site events go: the server's sockets, or the workers' Redis emitter. */
  publish: (event: SiteEvent) => void;
  /**
   * Where the sockets of someone whose access ended are disconnected, on every server: the server's socket.io, or
   * the workers' Redis emitter (realtime/disconnect-when-access-ends.ts).
   */
  disconnect: RoomDisconnector;
  /** scrypt cost; unset is the hasher's production default. */
  scryptParameters?: { N: number; r: number; p: number };
  /** The embedder of search and of the embeddings worker; unset, the one the configuration picks (createEmbedder). */
  embedder?: Embedder;
}

export async function composeDomain({
  config,
  logger,
  mongo,
  redis,
  redisUrl,
  publish,
  disconnect,
  scryptParameters,
  embedder,
}: DomainOptions) {
  const eventLog = await createEventLog(mongo, { retentionDays: config.EVENT_RETENTION_DAYS });
  const webhookModels = registerWebhookModels(mongo);
  await Promise.all([webhookModels.Webhook.init(), webhookModels.WebhookDelivery.init()]);
  const webhooks = (siteId: string) => new WebhookStore(webhookModels, siteId, eventLog.forSite(siteId));
  const webhooksQueue = createWebhooksQueue({ redisUrl, prefix: config.QUEUE_PREFIX, logger });
  const embeddingsQueueing = await openEmbeddingsQueueing({ config, mongo, redisUrl, logger });
  // The outbox's subscribers, each taking every relayed event at once: a content change queues the embedding of what
  // it changed, every event becomes the deliveries of the site's webhooks subscribed to it, and pending approvals
  // whose target the change changed expire (bound below, once the approvals' stores and the targets exist).
  let targetWatch: TargetWatchDependencies | undefined;
  const subscribers = [
    createEmbeddingsSubscriber(embeddingsQueueing.enqueuer),
    createWebhooksSubscriber({ webhooks, queue: webhooksQueue }),
    createTargetWatchSubscriber(() => {
      if (!targetWatch) throw new Error('target watch not bound yet');
      return targetWatch;
    }),
  ];
  const relay = new OutboxRelay({ eventLog: eventLog.forSite, publish, logger, onAppended: toSubscribers(subscribers) });
  const stores = await createStores(mongo, { relay });
  const embeddings = await composeEmbeddings({
    config,
    mongo,
    stores,
    eventLog,
    queueing: embeddingsQueueing,
    logger,
    ...(embedder ? { embedder } : {}),
  });
  // A settled approval of a conversation continues its run in the worker process (continuation/).
  const continuationQueue = createContinuationQueue({ redisUrl, prefix: config.QUEUE_PREFIX, logger });
  const aiStores = new AiStores(mongo, relay, {
    continueRun: (job) => continuationQueue.add(job),
    policyVersions: new RedisPolicyVersions(redis, `${config.QUEUE_PREFIX}:`),
  });
  await aiStores.ensureIndexes();
  await migrateAuditChainAtStart({ connection: mongo, models: aiStores.models, logger });
  const events = new DomainEvents((error, event) => logger.error({ err: error, event }, 'domain event listener failed'));
  // Whichever process ends someone's access (an API server, or a worker running an approved skill), their sockets go.
  disconnectWhenAccessEnds(events, disconnect);
  const hasher = new PasswordHasher(scryptParameters);
  const services = createServices({
    stores,
    redis,
    redisPrefix: `${config.QUEUE_PREFIX}:`,
    sessionTtlHours: config.SESSION_TTL_HOURS,
    hasher,
    events,
    trashRetention: { retentionDays: config.TRASH_RETENTION_DAYS },
  });
  const revisions = new RevisionsService({ stores, audit: (siteId) => aiStores.forSite(siteId).audit });
  // A deleted site's vectors go with it.
  events.on('site-removed', ({ siteId }) => {
    embeddings
      .embeddings(siteId)
      .removeAll()
      .catch((error: unknown) => logger.warn({ err: error, siteId }, 'could not remove a site’s vectors'));
  });
  // The RAG skills' one model call goes to the Copilot's provider (the Copilot logs a fallback to echo; not again here).
  const jsonModel = jsonModelOf(createPlanner(config, { retry: { logger } }));
  const executors = createSkillExecutors({
    ...services,
    operations: aiStores,
    revisions,
    search: embeddings.search,
    embedder: embeddings.embedder,
    jsonModel,
  });
  // What an approval would change, taken by the gate, re-checked by the decider and the worker.
  const approvalTargets = new StoreApprovalTargets(stores, { trashRetentionDays: config.TRASH_RETENTION_DAYS });
  targetWatch = { approvals: (siteId) => aiStores.forSite(siteId).approvals, targets: approvalTargets };
  const trash = new TrashService({
    stores,
    fields: services.fields,
    audit: (siteId) => aiStores.forSite(siteId).audit,
    revisions,
    retentionDays: config.TRASH_RETENTION_DAYS,
  });
  // A plan's roll-back: what its done steps created removed for good, what they changed put back (approvals/undo-step.ts).
  const stepUndoer = createStepUndoer({ stores, fields: services.fields, revisions, trash, operations: aiStores });
  return {
    eventLog,
    relay,
    stores,
    aiStores,
    services,
    hasher,
    executors,
    revisions,
    trash,
    stepUndoer,
    approvalTargets,
    webhooks,
    webhooksQueue,
    /** Deliveries still pending though queued before a moment, across sites (the reconciler queues them again). */
    pendingWebhookDeliveries: (olderThan: Date, limit: number) => pendingDeliveriesBefore(webhookModels, olderThan, limit),
    /** Vectors, the embeddings queue and its backlog, search; `embeddings.enqueuer.enqueue(job)` re-embeds a target. */
    embeddings,
    /** Closes the connections the domain opened itself (the webhooks and embeddings queues). */
    close: async () => {
      // Events relayed after their writes answered: sent before the queues and connections they use go.
      await relay.idle();
      await webhooksQueue.close();
      await embeddingsQueueing.queue.close();
      await continuationQueue.close();
    },
  };
}

export type Domain = Awaited<ReturnType<typeof composeDomain>>;

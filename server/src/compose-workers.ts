// The workers' part of a process, over its domain: the handler of every queue in the table (composeJobHandlers) →
// the queue workers (queue-table.ts) → the embeddings backlog drain, reconciler, expiry sweep and trash purge
// (startWorkers). The worker process reaches every server's sockets through the socket.io Redis emitter
// (startEmitter); the all-in-one process through its own sockets.
import {
  type CopilotProgressEvent,
  EMBEDDINGS_QUEUE,
  type ServerToClientEvents,
  type InterServerEvents,
  SITE_EVENT_CHANNEL,
  SKILL_EXECUTION_QUEUE,
  type SiteEvent,
  WEBHOOKS_QUEUE,
} from '@lumibase/shared';
import { Emitter } from '@socket.io/redis-emitter';
import type { RedisClientType } from 'redis';
import { ApprovalJobRunner } from './approvals/approval-job-runner.js';
import { ExpirySweep } from './approvals/expiry-sweep.js';
import { Reconciler } from './approvals/reconciler.js';
import type { SkillExecutionQueue } from './approvals/skill-execution.queue.js';
import { createSkillExecutionProcessor } from './approvals/skill-execution.processor.js';
import type { Domain } from './compose-domain.js';
import { type Config, studioUrl } from './config.js';
import { createBacklogDrain } from './retrieval/embeddings/backlog-drain.js';
import { createEmbeddingsProcessor } from './retrieval/embeddings/embeddings.processor.js';
import type { Lifecycle } from './lifecycle.js';
import type { Logger } from './logger.js';
import { type JobHandlers, type QueueKey, startQueueWorker } from './infrastructure/queue-table.js';
import type { RoomDisconnector } from './realtime/disconnect-when-access-ends.js';
import { memberRoom, socketIoKey } from './realtime/socket-server.js';
import { createContinuationProcessor } from './copilot/continuation/continuation.processor.js';
import { composeContinuation } from './copilot/continuation/compose-continuation.js';
import type { CopilotReplySink } from './copilot/continue-run.js';
import { TrashPurge } from './services/trash-purge.js';
import { createWebhookDeliveryProcessor } from './webhooks/webhook-delivery.processor.js';

/**
 * The worker process's way to every server's sockets: the socket.io Redis emitter. Site events its writes owe go
 * to every server, and a continued run's reply to the requester's sockets on whichever server holds them.
 */
export async function startEmitter(
  lifecycle: Lifecycle,
  { config, logger, redis }: { config: Pick<Config, 'QUEUE_PREFIX'>; logger: Logger; redis: RedisClientType },
): Promise<{ publish: (event: SiteEvent) => void; replies: CopilotReplySink; disconnect: RoomDisconnector }> {
  // Like the servers' adapter, the emitter keeps an offline queue: an event published during a Redis blip goes out once it is back.
  const emitterClient = redis.duplicate({ disableOfflineQueue: false });
  emitterClient.on('error', (error: Error) => logger.warn({ reason: error.message }, 'emitter redis connection error'));
  await lifecycle.start({
    name: 'emitter',
    start: async () => {
      try {
        await emitterClient.connect();
      } catch (error) {
        emitterClient.destroy();
        throw error;
      }
    },
    stop: async () => {
      if (emitterClient.isReady) await emitterClient.quit().catch(() => emitterClient.destroy());
      else emitterClient.destroy();
    },
  });
  const emitter = new Emitter<InterServerEvents>(emitterClient, { key: socketIoKey(config.QUEUE_PREFIX) });
  // A continued run's reply goes to the requester's sockets on whichever server holds them.
  const toSockets = new Emitter<ServerToClientEvents>(emitterClient, { key: socketIoKey(config.QUEUE_PREFIX) });
  return {
    publish: (event: SiteEvent) => emitter.serverSideEmit(SITE_EVENT_CHANNEL, event),
    // A membership an approved skill removes here disconnects its sockets on every server, as over REST.
    disconnect: toSockets,
    replies: {
      sendToMember: (siteId: string, userId: string, event: CopilotProgressEvent) =>
        toSockets.to(memberRoom(siteId, userId)).emit('copilot-progress', event),
    },
  };
}

/** What each queue's worker runs per job, over the domain: one handler for every queue in the table. */
export function composeJobHandlers({
  config,
  logger,
  redis,
  domain,
  replies,
}: {
  config: Config;
  logger: Logger;
  redis: RedisClientType;
  domain: Domain;
  /** Where a continued run's replies go: the emitter (worker process) or the process's own sockets. */
  replies: CopilotReplySink;
}): JobHandlers {
  const runner = new ApprovalJobRunner({
    stores: domain.aiStores,
    executors: domain.executors,
    reportError: (error, context) => logger.error({ err: error, ...context }, 'skill executor failed'),
    targets: domain.approvalTargets,
    undo: domain.stepUndoer,
  });
  return {
    skillExecution: createSkillExecutionProcessor({ runner, logger, heard: domain.eventLog.heard }),
    // Content changes become vectors.
    embeddings: createEmbeddingsProcessor({ indexer: domain.embeddings.indexer, logger }),
    // Site events become signed deliveries to the sites' webhooks, one at a time in seq order.
    webhooks: createWebhookDeliveryProcessor({
      webhooks: domain.webhooks,
      logger,
      studioUrl: studioUrl(config),
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    }),
    // A settled approval of a conversation continues its run: the model, as the requester, hears the outcome.
    copilotContinuation: createContinuationProcessor({
      continuation: composeContinuation({ config, logger, redis, domain, replies }),
      logger,
    }),
  };
}

export interface RunningWorkers {
  reconciler: Reconciler;
  expirySweep: ExpirySweep;
  trashPurge: TrashPurge;
  /** Queues what waits in the embeddings backlog now (also runs every few seconds). */
  drainEmbeddingsBacklog: () => Promise<number>;
}

/**
 * Starts a worker for every queue in the table with its handler, then the periodic parts; logs "workers started"
 * (and one line per other queue). Each is a part of `lifecycle`: the periodic parts stop first, then the workers.
 */
export async function startWorkers(
  lifecycle: Lifecycle,
  {
    config,
    logger,
    redisUrl,
    domain,
    queue,
    handlers,
  }: {
    config: Config;
    logger: Logger;
    redisUrl: string;
    domain: Domain;
    /** The skill-execution queue the reconciler adds a stalled decision's job to again. */
    queue: SkillExecutionQueue;
    handlers: JobHandlers;
  },
): Promise<RunningWorkers> {
  const startWorker = async (key: QueueKey) => {
    const running = startQueueWorker(key, { redisUrl, prefix: config.QUEUE_PREFIX, logger, settings: config, handler: handlers[key] });
    await lifecycle.start({ name: `${running.worker.name} worker`, stop: () => running.close() });
  };
  await startWorker('embeddings');
  await startWorker('webhooks');
  await startWorker('skillExecution');
  await startWorker('copilotContinuation');

  // The drain of jobs a Redis outage left in MongoDB.
  const backlog = createBacklogDrain({ embeddings: domain.embeddings, logger });
  await lifecycle.start({ name: 'embeddings backlog drain', start: backlog.start, stop: backlog.stop });
  const reconciler = new Reconciler({
    relay: domain.relay,
    approvals: domain.aiStores.models.approvals,
    queue,
    webhooks: { pending: domain.pendingWebhookDeliveries, queue: domain.webhooksQueue },
    logger,
  });
  await lifecycle.start({ name: 'reconciler', start: () => reconciler.start(config.RECONCILE_INTERVAL_MS), stop: () => reconciler.stop() });
  const expirySweep = new ExpirySweep({ approvals: domain.aiStores.models.approvals, stores: domain.aiStores, logger });
  await lifecycle.start({
    name: 'expiry sweep',
    start: () => expirySweep.start(config.APPROVAL_EXPIRY_SWEEP_MS),
    stop: () => expirySweep.stop(),
  });
  // Trash past TRASH_RETENTION_DAYS goes for good; deletions a crash interrupted are finished.
  const trashPurge = new TrashPurge({
    stores: domain.stores,
    logger,
    approvals: (siteId) => domain.aiStores.approvalStore(siteId),
    revisionRetentionDays: config.REVISION_RETENTION_DAYS,
  });
  await lifecycle.start({
    name: 'trash purge',
    start: () => trashPurge.start(config.TRASH_PURGE_INTERVAL_MS),
    stop: () => trashPurge.stop(),
  });

  logger.info({ queue: SKILL_EXECUTION_QUEUE, prefix: config.QUEUE_PREFIX, concurrency: config.WORKER_CONCURRENCY }, 'workers started');
  logger.info({ queue: WEBHOOKS_QUEUE, prefix: config.QUEUE_PREFIX }, 'webhooks worker started');
  logger.info(
    { queue: EMBEDDINGS_QUEUE, prefix: config.QUEUE_PREFIX, model: domain.embeddings.embedder.model },
    'embeddings worker started',
  );
  return { reconciler, expirySweep, trashPurge, drainEmbeddingsBacklog: backlog.drain };
}

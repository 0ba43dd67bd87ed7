// The workers' object graph: domain (the server's core) → skill-execution and webhooks processors → reconciler.
// Site events the workers' writes owe are pushed to every server through the socket.io Redis emitter.
import { EMBEDDINGS_QUEUE, SKILL_EXECUTION_QUEUE, type SiteEvent, WEBHOOKS_QUEUE } from '@lumibase/shared';
import {
  ApprovalJobRunner,
  type Config,
  composeDomain,
  type Domain,
  ExpirySweep,
  createSkillExecutionQueue,
  createSkillExecutionWorker,
  createWebhooksWorker,
  startEmbeddingsRunner,
  type Infrastructure,
  type Logger,
  Reconciler,
  SITE_EVENT_CHANNEL,
  socketIoKey,
  studioUrl,
  TrashPurge,
} from '@lumibase/server/core';
import { Emitter } from '@socket.io/redis-emitter';
import type { Worker } from 'bullmq';

export interface RunningWorkers {
  worker: Worker;
  reconciler: Reconciler;
  expirySweep: ExpirySweep;
  trashPurge: TrashPurge;
  stop(): Promise<void>;
}

/** Crash tests kill a worker after a skill took effect and before its approval is settled. */
function withFaultDelay(executors: Domain['executors'], delayMs: number): Domain['executors'] {
  if (delayMs === 0) return executors;
  const delayed: Record<string, unknown> = {};
  for (const [name, execute] of Object.entries(executors) as [string, (...args: unknown[]) => Promise<unknown>][]) {
    delayed[name] = async (...args: unknown[]) => {
      const result = await execute(...args);
      await new Promise((wait) => setTimeout(wait, delayMs));
      return result;
    };
  }
  return delayed as Domain['executors'];
}

export async function startWorkers({
  config,
  logger,
  infrastructure,
}: {
  config: Config;
  logger: Logger;
  infrastructure: Infrastructure;
}): Promise<RunningWorkers> {
  // Like the servers' adapter, the emitter keeps an offline queue: an event published during a Redis blip goes out once it is back.
  const emitterClient = infrastructure.redis.duplicate({ disableOfflineQueue: false });
  emitterClient.on('error', (error: Error) => logger.warn({ reason: error.message }, 'emitter redis connection error'));
  await emitterClient.connect();
  const emitter = new Emitter(emitterClient, { key: socketIoKey(config.QUEUE_PREFIX) });
  const publish = (event: SiteEvent) => emitter.serverSideEmit(SITE_EVENT_CHANNEL, event);
  const domain = await composeDomain({
    config,
    logger,
    mongo: infrastructure.mongo,
    redis: infrastructure.redis,
    redisUrl: infrastructure.redisUrl,
    publish,
  });
  const runner = new ApprovalJobRunner({
    stores: domain.aiStores,
    executors: withFaultDelay(domain.executors, config.FAULT_DELAY_AFTER_SKILL_MS),
    reportError: (error, context) => logger.error({ err: error, ...context }, 'skill executor failed'),
    targets: domain.approvalTargets,
    delayBeforeRunMs: config.FAULT_DELAY_BEFORE_SKILL_MS,
  });

  const skillExecution = createSkillExecutionWorker({
    redisUrl: infrastructure.redisUrl,
    prefix: config.QUEUE_PREFIX,
    runner,
    logger,
    concurrency: config.WORKER_CONCURRENCY,
    lockMs: config.JOB_LOCK_MS,
  });

  // Site events become signed deliveries to the sites' webhooks, one at a time in seq order.
  const webhooks = createWebhooksWorker({
    redisUrl: infrastructure.redisUrl,
    prefix: config.QUEUE_PREFIX,
    logger,
    webhooks: domain.webhooks,
    studioUrl: studioUrl(config),
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
  });

  // Content changes become vectors: the embeddings worker, and the drain of jobs a Redis outage left in MongoDB.
  const embeddings = startEmbeddingsRunner({ config, redisUrl: infrastructure.redisUrl, embeddings: domain.embeddings, logger });

  const queue = createSkillExecutionQueue({ redisUrl: infrastructure.redisUrl, prefix: config.QUEUE_PREFIX, logger });
  const reconciler = new Reconciler({
    relay: domain.relay,
    approvals: domain.aiStores.models.approvals,
    queue,
    webhooks: { pending: domain.pendingWebhookDeliveries, queue: domain.webhooksQueue },
    logger,
  });
  reconciler.start(config.RECONCILE_INTERVAL_MS);
  const expirySweep = new ExpirySweep({ approvals: domain.aiStores.models.approvals, stores: domain.aiStores, logger });
  expirySweep.start(config.APPROVAL_EXPIRY_SWEEP_MS);
  // Trash past TRASH_RETENTION_DAYS goes for good; deletions a crash interrupted are finished.
  const trashPurge = new TrashPurge({ stores: domain.stores, logger });
  trashPurge.start(config.TRASH_PURGE_INTERVAL_MS);
  logger.info({ queue: SKILL_EXECUTION_QUEUE, prefix: config.QUEUE_PREFIX, concurrency: config.WORKER_CONCURRENCY }, 'workers started');
  logger.info({ queue: WEBHOOKS_QUEUE, prefix: config.QUEUE_PREFIX }, 'webhooks worker started');
  logger.info(
    { queue: EMBEDDINGS_QUEUE, prefix: config.QUEUE_PREFIX, model: domain.embeddings.embedder.model },
    'embeddings worker started',
  );

  return {
    worker: skillExecution.worker,
    reconciler,
    expirySweep,
    trashPurge,
    async stop() {
      await trashPurge.stop();
      await expirySweep.stop();
      await reconciler.stop();
      await skillExecution.close();
      await webhooks.close();
      await embeddings.stop();
      await domain.close();
      await queue.close();
      if (emitterClient.isReady) await emitterClient.quit().catch(() => emitterClient.destroy());
      else emitterClient.destroy();
    },
  };
}

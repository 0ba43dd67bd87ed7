// Composition root of the workers: domain (the server's core) → skill-execution, webhooks and embeddings workers →
// reconciler, expiry sweep, trash purge. Site events the workers' writes owe are pushed to every server through the
// socket.io Redis emitter. The worker process, the all-in-one process and the test server (testing/test-server.ts)
// all compose the workers with it; tests replace parts through `parts` (compose-parts.ts) and nothing else.
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
import type { Worker } from 'bullmq';
import { ApprovalJobRunner } from './approvals/approval-job-runner.js';
import { ExpirySweep } from './approvals/expiry-sweep.js';
import { Reconciler } from './approvals/reconciler.js';
import { createSkillExecutionQueue } from './approvals/skill-execution.queue.js';
import { createSkillExecutionWorker } from './approvals/skill-execution.worker.js';
import type { CompositionParts } from './compose-parts.js';
import { composeDomain, type Domain } from './compose-domain.js';
import { type Config, studioUrl } from './config.js';
import { type EmbeddingsRunner, startEmbeddingsRunner } from './embeddings/embeddings-runner.js';
import type { Infrastructure } from './infrastructure/start-infrastructure.js';
import type { Logger } from './logger.js';
import { memberRoom, socketIoKey } from './realtime/socket-server.js';
import { createContinuationWorker } from './continuation/continuation.worker.js';
import { composeContinuation } from './continuation/compose-continuation.js';
import { TrashPurge } from './services/trash-purge.js';
import { createWebhooksWorker } from './webhooks/webhooks.worker.js';

export interface ComposeWorkersOptions {
  config: Config;
  logger: Logger;
  infrastructure: Pick<Infrastructure, 'mongo' | 'redis' | 'redisUrl'>;
  /** What a test composes differently (compose-parts.ts); production passes none. */
  parts?: CompositionParts;
}

export interface RunningWorkers {
  worker: Worker;
  domain: Domain;
  reconciler: Reconciler;
  expirySweep: ExpirySweep;
  trashPurge: TrashPurge;
  /** The embeddings worker and the drain of its backlog. */
  embeddings: EmbeddingsRunner;
}

export interface ComposedWorkers {
  /** Composes and starts every worker; logs "workers started" (and one line per other queue). */
  start(): Promise<RunningWorkers>;
  /** Stops what has started so far (safe before, during and after start). */
  stop(): Promise<void>;
}

export function composeWorkers({ config, logger, infrastructure, parts = {} }: ComposeWorkersOptions): ComposedWorkers {
  // What has started, stopped in this order.
  const closers: { name: string; close: () => Promise<void> }[] = [];
  const stopFirst = (name: string, close: () => Promise<void>) => closers.unshift({ name, close });
  const stopLast = (name: string, close: () => Promise<void>) => closers.push({ name, close });

  async function start(): Promise<RunningWorkers> {
    const { redisUrl } = infrastructure;
    // Like the servers' adapter, the emitter keeps an offline queue: an event published during a Redis blip goes out once it is back.
    const emitterClient = infrastructure.redis.duplicate({ disableOfflineQueue: false });
    emitterClient.on('error', (error: Error) => logger.warn({ reason: error.message }, 'emitter redis connection error'));
    stopLast('emitter', async () => {
      if (emitterClient.isReady) await emitterClient.quit().catch(() => emitterClient.destroy());
      else emitterClient.destroy();
    });
    await emitterClient.connect();
    const emitter = new Emitter<InterServerEvents>(emitterClient, { key: socketIoKey(config.QUEUE_PREFIX) });
    const publish = (event: SiteEvent) => emitter.serverSideEmit(SITE_EVENT_CHANNEL, event);
    // A continued run's reply goes to the requester's sockets on whichever server holds them.
    const toSockets = new Emitter<ServerToClientEvents>(emitterClient, { key: socketIoKey(config.QUEUE_PREFIX) });
    const replyEmitter = {
      sendToMember: (siteId: string, userId: string, event: CopilotProgressEvent) =>
        toSockets.to(memberRoom(siteId, userId)).emit('copilot-progress', event),
    };
    const domain = await composeDomain({
      config,
      logger,
      mongo: infrastructure.mongo,
      redis: infrastructure.redis,
      redisUrl,
      publish,
      // A membership an approved skill removes here disconnects its sockets on every server, as over REST.
      disconnect: toSockets,
      ...(parts.scryptParameters ? { scryptParameters: parts.scryptParameters } : {}),
      ...(parts.embedder ? { embedder: parts.embedder } : {}),
    });
    const queue = createSkillExecutionQueue({ redisUrl, prefix: config.QUEUE_PREFIX, logger });
    // Stopped after the workers, before the emitter: domain, then the queue the reconciler used.
    closers.splice(closers.length - 1, 0, { name: 'domain', close: () => domain.close() }, { name: 'queue', close: () => queue.close() });

    const runner = new ApprovalJobRunner({
      stores: domain.aiStores,
      executors: parts.executors ? parts.executors(domain.executors) : domain.executors,
      reportError: (error, context) => logger.error({ err: error, ...context }, 'skill executor failed'),
      targets: domain.approvalTargets,
      undo: domain.stepUndoer,
    });
    const skillExecution = createSkillExecutionWorker({
      redisUrl,
      prefix: config.QUEUE_PREFIX,
      runner: parts.jobRunner ? parts.jobRunner(runner) : runner,
      logger,
      concurrency: config.WORKER_CONCURRENCY,
      lockMs: config.JOB_LOCK_MS,
      heard: domain.eventLog.heard,
    });
    // Site events become signed deliveries to the sites' webhooks, one at a time in seq order.
    const webhooks = createWebhooksWorker({
      redisUrl,
      prefix: config.QUEUE_PREFIX,
      logger,
      webhooks: domain.webhooks,
      studioUrl: studioUrl(config),
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    });
    // Content changes become vectors: the embeddings worker, and the drain of jobs a Redis outage left in MongoDB.
    const embeddings = startEmbeddingsRunner({ config, redisUrl, embeddings: domain.embeddings, logger });
    stopFirst('embeddings', () => embeddings.stop());
    stopFirst('webhooks worker', () => webhooks.close());
    stopFirst('skill-execution worker', () => skillExecution.close());

    const reconciler = new Reconciler({
      relay: domain.relay,
      approvals: domain.aiStores.models.approvals,
      queue,
      webhooks: { pending: domain.pendingWebhookDeliveries, queue: domain.webhooksQueue },
      logger,
    });
    reconciler.start(config.RECONCILE_INTERVAL_MS);
    stopFirst('reconciler', () => reconciler.stop());
    // A settled approval of a conversation continues its run: the model, as the requester, hears the outcome.
    const continuation = createContinuationWorker({
      redisUrl,
      prefix: config.QUEUE_PREFIX,
      logger,
      concurrency: config.WORKER_CONCURRENCY,
      continuation: composeContinuation({ config, logger, redis: infrastructure.redis, domain, replies: replyEmitter, clock: parts.clock }),
    });
    stopFirst('continuation worker', () => continuation.close());
    const expirySweep = new ExpirySweep({
      approvals: domain.aiStores.models.approvals,
      stores: domain.aiStores,
      logger,
      ...(parts.clock ? { clock: parts.clock } : {}),
    });
    expirySweep.start(config.APPROVAL_EXPIRY_SWEEP_MS);
    stopFirst('expiry sweep', () => expirySweep.stop());
    // Trash past TRASH_RETENTION_DAYS goes for good; deletions a crash interrupted are finished.
    const trashPurge = new TrashPurge({
      stores: domain.stores,
      logger,
      approvals: (siteId) => domain.aiStores.approvalStore(siteId),
      revisionRetentionDays: config.REVISION_RETENTION_DAYS,
    });
    trashPurge.start(config.TRASH_PURGE_INTERVAL_MS);
    stopFirst('trash purge', () => trashPurge.stop());

    logger.info({ queue: SKILL_EXECUTION_QUEUE, prefix: config.QUEUE_PREFIX, concurrency: config.WORKER_CONCURRENCY }, 'workers started');
    logger.info({ queue: WEBHOOKS_QUEUE, prefix: config.QUEUE_PREFIX }, 'webhooks worker started');
    logger.info(
      { queue: EMBEDDINGS_QUEUE, prefix: config.QUEUE_PREFIX, model: domain.embeddings.embedder.model },
      'embeddings worker started',
    );
    return { worker: skillExecution.worker, domain, reconciler, expirySweep, trashPurge, embeddings };
  }

  return {
    start,
    async stop() {
      for (const { close } of closers.splice(0)) await close();
    },
  };
}

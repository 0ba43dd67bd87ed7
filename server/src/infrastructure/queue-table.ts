// Every BullMQ queue LumiBase runs, in one table: its name, the job it carries (the zod schema in shared/, which
// the queue's handler parses on arrival), the options every job is added with, how its worker runs and logs, and
// the Redis settings of the producers' and the workers' connections. The producers (skill-execution, embeddings,
// webhooks, continuation .queue.ts) build their Queue from it; every Worker is built here (startQueueWorkers), each
// running the handler the process registered for its queue (a feature's .processor.ts), and none without one.
//
// Connection policy, one for every queue:
// - Producers fail fast while Redis is down (enableOfflineQueue: false, maxRetriesPerRequest: 1). Every producer
//   holds what it queues durably elsewhere, so a refused add loses nothing: a decision answers 503 and the approval
//   stays for the reconciler; an embeddings job goes to the MongoDB backlog; a webhook delivery is recorded pending
//   in MongoDB before it is queued (the relay retries the event, the reconciler queues it again). An offline queue
//   would instead hold a request or the relay for the length of the outage, with commands only in memory.
//   So that the first jobs after start-up do not fail for a connection still being made, a producer waits for
//   its first connection (or first error) up to PRODUCER_READY_WAIT_MS before its first add.
// - Workers (and the QueueEvents a decision waits on) block on their connection, which BullMQ requires to have
//   maxRetriesPerRequest: null; they keep ioredis' offline queue and reconnect on their own.
import {
  COPILOT_CONTINUATION_QUEUE,
  CopilotContinuationJob,
  EMBEDDINGS_QUEUE,
  EmbeddingJob,
  SKILL_EXECUTION_QUEUE,
  SkillExecutionJob,
  WEBHOOKS_QUEUE,
  WebhookDeliveryJob,
} from '@lumibase/shared';
import { type Job, type JobsOptions, Worker } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import type { z } from 'zod';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';

/** A producer's connection: fails fast while Redis is down (see the policy above). */
export const PRODUCER_CONNECTION: RedisOptions = { enableOfflineQueue: false, maxRetriesPerRequest: 1 };
/** A worker's (or QueueEvents') blocking connection, as BullMQ requires it. */
export const WORKER_CONNECTION: RedisOptions = { maxRetriesPerRequest: null };
/** How long a producer's first add waits for the connection being made. */
export const PRODUCER_READY_WAIT_MS = 2000;
/** How long a stopping worker lets its running jobs finish before closing anyway. */
export const WORKER_STOP_BOUND_MS = 10_000;

/** What a worker runs with, besides its connection and prefix. */
export interface WorkerRunOptions {
  concurrency: number;
  lockDuration?: number;
  stalledInterval?: number;
  limiter?: { max: number; duration: number };
}

/** The settings the workers run with. */
export type WorkerSettings = Pick<Config, 'WORKER_CONCURRENCY' | 'JOB_LOCK_MS' | 'EMBEDDINGS_RATE_LIMIT_PER_MINUTE'>;

export interface QueueSpec<Schema extends z.ZodType> {
  name: string;
  /** The job's payload; the handler parses it, a malformed one fails without retries. */
  job: Schema;
  /** Added to every job (a producer adds its own jobId or deduplication). */
  jobOptions: JobsOptions;
  worker: {
    /** The worker's name in its logs ("<label> error", its connection's "<label> redis connection error"). */
    label: string;
    /** Its concurrency, lock and rate limit, from the settings (WORKER_CONCURRENCY, JOB_LOCK_MS, ...). */
    options(settings: WorkerSettings): WorkerRunOptions;
    /** What a failed try logs besides its reason; unset, nothing (the handler's own record says it). */
    failed?: { message: string; fields(job: Job | undefined): Record<string, unknown> };
  };
}

function spec<Schema extends z.ZodType>(queue: QueueSpec<Schema>): QueueSpec<Schema> {
  return queue;
}

export const QUEUES = {
  /** One job per decision (jobId = approval id and attempt): at least once, retried for transient failures. */
  skillExecution: spec({
    name: SKILL_EXECUTION_QUEUE,
    job: SkillExecutionJob,
    jobOptions: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 500, jitter: 0.5 },
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    },
    worker: {
      label: 'worker',
      // A worker holds a job JOB_LOCK_MS before another may take it over.
      options: (settings) => ({
        concurrency: settings.WORKER_CONCURRENCY,
        lockDuration: settings.JOB_LOCK_MS,
        stalledInterval: settings.JOB_LOCK_MS,
      }),
      failed: { message: 'skill-execution job failed', fields: (job) => ({ jobId: job?.id, attemptsMade: job?.attemptsMade }) },
    },
  }),
  /**
   * One job per changed target, deduplicated. Many tries, backing off up to about an hour: a provider outage
   * delays embeddings, it never loses them (a job that still fails stays in the failed set; the site's pending
   * count shows it and search re-queues it).
   */
  embeddings: spec({
    name: EMBEDDINGS_QUEUE,
    job: EmbeddingJob,
    jobOptions: {
      attempts: 15,
      backoff: { type: 'exponential', delay: 1000, jitter: 0.3 },
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    },
    worker: {
      label: 'embeddings worker',
      // A provider's rate limit (EMBEDDINGS_RATE_LIMIT_PER_MINUTE), when above 0, caps the jobs per minute.
      options: (settings) => ({
        concurrency: settings.WORKER_CONCURRENCY,
        ...(settings.EMBEDDINGS_RATE_LIMIT_PER_MINUTE > 0
          ? { limiter: { max: settings.EMBEDDINGS_RATE_LIMIT_PER_MINUTE, duration: 60_000 } }
          : {}),
      }),
      failed: { message: 'embeddings job failed', fields: (job) => ({ jobId: job?.id, attemptsMade: job?.attemptsMade }) },
    },
  }),
  /**
   * One job per delivery (jobId = delivery id). 6 tries: the first retries come about 1 s, 2 s, 4 s, 8 s, 16 s
   * after a failure (docs/API.md: at least 5, starting within seconds).
   */
  webhooks: spec({
    name: WEBHOOKS_QUEUE,
    job: WebhookDeliveryJob,
    jobOptions: {
      attempts: 6,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    },
    worker: {
      label: 'webhooks worker',
      // One delivery at a time per worker process: jobs are taken in the order they were queued, which is seq order
      // per site. (A retried delivery waits out its backoff while later ones go ahead; receivers order by `seq`.)
      options: () => ({ concurrency: 1 }),
    },
  }),
  /**
   * One job per settled approval of a conversation (jobId = the settlement's note id): the run continues once.
   * A model outage is retried a few times; the outcome stays in the conversation's note either way.
   */
  copilotContinuation: spec({
    name: COPILOT_CONTINUATION_QUEUE,
    job: CopilotContinuationJob,
    jobOptions: {
      attempts: 4,
      backoff: { type: 'exponential', delay: 2000, jitter: 0.5 },
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    },
    worker: {
      label: 'continuation worker',
      options: (settings) => ({ concurrency: settings.WORKER_CONCURRENCY }),
      failed: { message: 'copilot continuation failed', fields: (job) => ({ approvalId: job?.data?.approvalId }) },
    },
  }),
} as const;

/** A queue's key in the table. */
export type QueueKey = keyof typeof QUEUES;

/** What a queue's worker runs per job; `worker` lets it pause its own queue (a provider's 429: Worker.rateLimit). */
/** `token`: the lock the worker holds on the job, for a handler that moves its job (moveToDelayed). */
export type JobHandler = (job: Job, worker: Pick<Worker, 'rateLimit'>, token?: string) => Promise<unknown>;

/** The handler of every queue in the table: a process that runs workers registers one for each. */
export type JobHandlers = Record<QueueKey, JobHandler>;

/** Every queue's name: what the queue dashboard shows. */
export const QUEUE_NAMES = Object.values(QUEUES).map((queue) => queue.name);

/** A producer's connection, and a wait for its first connection that resolves within PRODUCER_READY_WAIT_MS. */
export function openProducerConnection(redisUrl: string, logger: Logger, label: string) {
  const connection = new Redis(redisUrl, PRODUCER_CONNECTION);
  connection.on('error', (error: Error) => logger.warn({ reason: error.message }, `${label} redis connection error`));
  let settled = false;
  const first = new Promise<void>((done) => {
    const settle = () => {
      settled = true;
      clearTimeout(timer);
      done();
    };
    const timer = setTimeout(settle, PRODUCER_READY_WAIT_MS);
    timer.unref();
    connection.once('ready', settle);
    connection.once('error', settle);
  });
  return {
    connection,
    /** Resolves at once when Redis is ready; otherwise rejects (fast, once the first connection was tried). */
    async ready(): Promise<void> {
      if (!settled) await first;
      if (connection.status !== 'ready') throw new Error(`Redis is not ready (${connection.status})`);
    },
  };
}

/** A worker's blocking connection. */
export function openWorkerConnection(redisUrl: string, logger: Logger, label: string): Redis {
  const connection = new Redis(redisUrl, WORKER_CONNECTION);
  connection.on('error', (error: Error) => logger.warn({ reason: error.message }, `${label} redis connection error`));
  return connection;
}

/** Closes a producer's queue (and what else it opened) politely, or drops it within a second while Redis is down. */
export async function closeProducer(connection: Redis, close: () => Promise<unknown>): Promise<void> {
  if (connection.status !== 'ready') {
    connection.disconnect();
    await Promise.race([close(), new Promise((done) => setTimeout(done, 1000))]);
    return;
  }
  await Promise.race([close(), new Promise((done) => setTimeout(done, 1000))]);
  connection.disconnect();
}

export interface QueueWorker {
  worker: Worker;
  /** Stops taking jobs and lets the running ones finish, within WORKER_STOP_BOUND_MS. */
  close(): Promise<void>;
}

/** Starts the worker of one queue in the table, running `handler`, with the table's options and connection. */
export function startQueueWorker(
  key: QueueKey,
  {
    redisUrl,
    prefix,
    logger,
    settings,
    handler,
  }: { redisUrl: string; prefix: string; logger: Logger; settings: WorkerSettings; handler: JobHandler },
): QueueWorker {
  const { name, worker: spec } = QUEUES[key];
  if (typeof handler !== 'function') throw new Error(`no handler registered for the ${name} queue`);
  const connection = openWorkerConnection(redisUrl, logger, spec.label);
  const worker: Worker = new Worker(name, (job: Job, token?: string) => handler(job, worker, token), {
    connection,
    prefix,
    ...spec.options(settings),
  });
  worker.on('error', (error: Error) => logger.warn({ reason: error.message }, `${spec.label} error`));
  const { failed } = spec;
  if (failed) worker.on('failed', (job, error) => logger.warn({ ...failed.fields(job), reason: error.message }, failed.message));
  return {
    worker,
    async close() {
      await Promise.race([worker.close(), new Promise((done) => setTimeout(done, WORKER_STOP_BOUND_MS))]);
      connection.disconnect();
    },
  };
}

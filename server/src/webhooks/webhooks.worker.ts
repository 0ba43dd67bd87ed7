// The BullMQ worker of the `webhooks` queue: the worker process runs it (and route tests, in-process).
import { WEBHOOKS_QUEUE } from '@lumibase/shared';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import { createWebhookDeliveryProcessor, type WebhookDeliveryProcessorOptions } from './webhook-delivery.processor.js';

const STOP_BOUND_MS = 10_000;

/**
 * One delivery at a time per worker process: jobs are taken in the order they were queued, which is
 * seq order per site. (A retried delivery waits out its backoff while later ones go ahead; receivers
 * order by the payload's `seq`.)
 */
export function createWebhooksWorker(options: WebhookDeliveryProcessorOptions & { redisUrl: string; prefix: string; logger: Logger }) {
  const { redisUrl, prefix, logger } = options;
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', (error: Error) => logger.warn({ reason: error.message }, 'webhooks worker redis connection error'));
  const worker = new Worker(WEBHOOKS_QUEUE, createWebhookDeliveryProcessor(options), { connection, prefix, concurrency: 1 });
  worker.on('error', (error: Error) => logger.warn({ reason: error.message }, 'webhooks worker error'));
  return {
    worker,
    async close() {
      await Promise.race([worker.close(), new Promise((done) => setTimeout(done, STOP_BOUND_MS))]);
      connection.disconnect();
    },
  };
}

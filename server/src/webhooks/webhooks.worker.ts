// The BullMQ worker of the `webhooks` queue: the worker process runs it (and route tests, in-process).
// Name, worker options and connection settings come from the queue table.
import { Worker } from 'bullmq';
import type { Logger } from '../logger.js';
import { openWorkerConnection, QUEUES, WORKER_STOP_BOUND_MS } from '../queues/queue-table.js';
import { createWebhookDeliveryProcessor, type WebhookDeliveryProcessorOptions } from './webhook-delivery.processor.js';

/**
 * One delivery at a time per worker process: jobs are taken in the order they were queued, which is
 * seq order per site. (A retried delivery waits out its backoff while later ones go ahead; receivers
 * order by the payload's `seq`.)
 */
export function createWebhooksWorker(options: WebhookDeliveryProcessorOptions & { redisUrl: string; prefix: string; logger: Logger }) {
  const { redisUrl, prefix, logger } = options;
  const connection = openWorkerConnection(redisUrl, logger, 'webhooks worker');
  const worker = new Worker(QUEUES.webhooks.name, createWebhookDeliveryProcessor(options), {
    connection,
    prefix,
    ...QUEUES.webhooks.worker({}),
  });
  worker.on('error', (error: Error) => logger.warn({ reason: error.message }, 'webhooks worker error'));
  return {
    worker,
    async close() {
      await Promise.race([worker.close(), new Promise((done) => setTimeout(done, WORKER_STOP_BOUND_MS))]);
      connection.disconnect();
    },
  };
}

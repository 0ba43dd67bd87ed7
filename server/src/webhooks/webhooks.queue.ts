// The `webhooks` BullMQ queue as producers use it: one job per delivery, retried with exponential backoff.
// Name, job options and connection settings come from the queue table.
import type { WebhookDeliveryJob } from '@lumibase/shared';
import { Queue } from 'bullmq';
import type { Logger } from '../logger.js';
import { closeProducer, openProducerConnection, QUEUES } from '../infrastructure/queue-table.js';

const SPEC = QUEUES.webhooks;

export interface WebhooksQueue {
  /**
   * jobId = deliveryId: a delivery recorded twice (a relay retried) is queued once. Rejects at once when Redis
   * cannot take it: the delivery stays pending in MongoDB and is queued again (relay retry, reconciler).
   */
  add(job: WebhookDeliveryJob): Promise<void>;
  close(): Promise<void>;
}

export function createWebhooksQueue({ redisUrl, prefix, logger }: { redisUrl: string; prefix: string; logger: Logger }): WebhooksQueue {
  const producer = openProducerConnection(redisUrl, logger, 'webhooks queue');
  const queue = new Queue<WebhookDeliveryJob>(SPEC.name, { connection: producer.connection, prefix });
  queue.on('error', (error: Error) => logger.warn({ reason: error.message }, 'webhooks queue error'));
  return {
    async add(job) {
      await producer.ready();
      await queue.add('deliver', job, { ...SPEC.jobOptions, jobId: job.deliveryId });
    },
    close: () => closeProducer(producer.connection, () => queue.close()),
  };
}

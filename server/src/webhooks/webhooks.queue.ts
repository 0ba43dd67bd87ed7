// The `webhooks` BullMQ queue as producers use it: one job per delivery, retried with exponential backoff.
import { WEBHOOKS_QUEUE, type WebhookDeliveryJob } from '@lumibase/shared';
import { type JobsOptions, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '../logger.js';

/** 6 tries: the first retries come about 1 s, 2 s, 4 s, 8 s, 16 s after a failure (API.md: at least 5, starting within seconds). */
export const WEBHOOK_JOB_OPTIONS: JobsOptions = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

export interface WebhooksQueue {
  /** jobId = deliveryId: a delivery recorded twice (a relay retried) is queued once. */
  add(job: WebhookDeliveryJob): Promise<void>;
  close(): Promise<void>;
}

export function createWebhooksQueue({ redisUrl, prefix, logger }: { redisUrl: string; prefix: string; logger: Logger }): WebhooksQueue {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  connection.on('error', (error: Error) => logger.warn({ reason: error.message }, 'webhooks queue redis connection error'));
  const queue = new Queue<WebhookDeliveryJob>(WEBHOOKS_QUEUE, { connection, prefix });
  queue.on('error', (error: Error) => logger.warn({ reason: error.message }, 'webhooks queue error'));
  return {
    async add(job) {
      await queue.add('deliver', job, { ...WEBHOOK_JOB_OPTIONS, jobId: job.deliveryId });
    },
    async close() {
      await Promise.race([queue.close(), new Promise((done) => setTimeout(done, 1000))]);
      connection.disconnect();
    },
  };
}

// The reconciler and webhook deliveries whose job is gone (a Redis that came back empty): queued again once they are
// older than the grace period, on the real queue, where a job still there is not added twice.
import { randomBytes, randomUUID } from 'node:crypto';
import { WEBHOOKS_QUEUE } from '@lumibase/shared';
import { Queue } from 'bullmq';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { createEventLog } from '../store/event-log.js';
import { OutboxRelay } from '../store/outbox.js';
import { createAiModels } from '../store/ai/ai-models.js';
import { pendingDeliveriesBefore, registerWebhookModels, type WebhookModels } from '../store/webhook.store.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createWebhooksQueue, type WebhooksQueue } from '../webhooks/webhooks.queue.js';
import { createSkillExecutionQueue, type SkillExecutionQueue } from './skill-execution.queue.js';
import { Reconciler } from './reconciler.js';

const redisUrl = process.env.LUMIBASE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `test-reconcile-webhooks-${randomBytes(4).toString('hex')}`;
const logger = createLogger({ level: 'silent' });
let database: TestDatabase;
let models: WebhookModels;
let webhooksQueue: WebhooksQueue;
let skillQueue: SkillExecutionQueue;
let inspect: Queue;
let reconciler: Reconciler;
const now = new Date('2026-11-30T12:00:00Z');

beforeAll(async () => {
  database = await openTestDatabase('reconcile-webhooks');
  models = registerWebhookModels(database.connection);
  await models.WebhookDelivery.init();
  const eventLog = await createEventLog(database.connection);
  webhooksQueue = createWebhooksQueue({ redisUrl, prefix, logger });
  skillQueue = createSkillExecutionQueue({ redisUrl, prefix, logger });
  inspect = new Queue(WEBHOOKS_QUEUE, { connection: { url: redisUrl } as never, prefix });
  reconciler = new Reconciler({
    relay: new OutboxRelay({ eventLog: eventLog.forSite, publish: () => {}, logger }),
    approvals: createAiModels(database.connection).approvals,
    queue: skillQueue,
    webhooks: { pending: (olderThan, limit) => pendingDeliveriesBefore(models, olderThan, limit), queue: webhooksQueue },
    logger,
    graceMs: 15_000,
    clock: () => now,
  });
});
afterAll(async () => {
  await inspect?.obliterate({ force: true }).catch(() => {});
  await inspect?.close();
  await webhooksQueue?.close();
  await skillQueue?.close();
  await database?.close();
});

async function delivery(status: 'pending' | 'delivered' | 'failed', ageMs: number): Promise<string> {
  const created = await models.WebhookDelivery.create({
    siteId: new Types.ObjectId(),
    webhookId: new Types.ObjectId(),
    eventId: randomUUID(),
    event: 'content-changed',
    seq: 1,
    payload: '{}',
    status,
    createdAt: new Date(now.getTime() - ageMs),
  });
  return created._id.toHexString();
}

describe('the reconciler, for webhook deliveries', () => {
  it('queues again a delivery still pending past the grace period, once however often it runs, and leaves the others alone', async () => {
    const lost = await delivery('pending', 60_000);
    const fresh = await delivery('pending', 1000);
    const delivered = await delivery('delivered', 60_000);
    const failed = await delivery('failed', 60_000);

    expect((await reconciler.reconcile()).redelivered).toBe(1);
    expect((await reconciler.reconcile()).redelivered).toBe(1);

    const jobs = await inspect.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized']);
    expect(jobs.map((job) => job.id)).toEqual([lost]);
    expect(jobs[0]!.data).toMatchObject({ deliveryId: lost });
    for (const other of [fresh, delivered, failed]) expect(await inspect.getJob(other)).toBeUndefined();
  });
});

// The webhooks subscriber behind the outbox relay, over the wire and on the real queue: a site's subscriptions are
// held per webhooks generation, and a webhook change made by another process still decides the next event's deliveries.
import { randomBytes } from 'node:crypto';
import { WEBHOOKS_QUEUE } from '@lumibase/shared';
import { Queue } from 'bullmq';
import { type Connection, type Model, Schema, Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { createEventLog } from '../store/event-log.js';
import { OutboxRelay, type OwingDocument, outboxFields, owe } from '../store/outbox.js';
import { toSubscribers } from '../store/outbox-subscriber.js';
import { registerWebhookModels, WebhookStore } from '../store/webhook.store.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { openWatchedConnection } from '../../test-support/watched-connection.js';
import { createWebhooksQueue, type WebhooksQueue } from './webhooks.queue.js';
import { createWebhooksSubscriber } from './webhooks-subscriber.js';

const redisUrl = process.env.LUMIBASE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `test-webhooks-subscriber-${randomBytes(4).toString('hex')}`;
const logger = createLogger({ level: 'silent' });
let database: TestDatabase;
let queue: WebhooksQueue;
let inspect: Queue;

beforeAll(async () => {
  database = await openTestDatabase('webhooks_subscriber');
  queue = createWebhooksQueue({ redisUrl, prefix, logger });
  inspect = new Queue(WEBHOOKS_QUEUE, { connection: { url: redisUrl } as never, prefix });
});
afterAll(async () => {
  await inspect?.obliterate({ force: true }).catch(() => {});
  await inspect?.close();
  await queue?.close();
  await database?.close();
});

/** What one server process has over its own connection: the event log, the relay with the subscriber, the stores. */
async function processOn(connection: Connection) {
  const eventLog = await createEventLog(connection);
  const models = registerWebhookModels(connection);
  await Promise.all([models.Webhook.init(), models.WebhookDelivery.init()]);
  const webhooks = (siteId: string) => new WebhookStore(models, siteId, eventLog.forSite(siteId));
  const relay = new OutboxRelay({
    eventLog: eventLog.forSite,
    publish: () => {},
    logger,
    onAppended: toSubscribers([createWebhooksSubscriber({ webhooks, queue })]),
  });
  const Owing: Model<OwingDocument> =
    connection.models.WebhooksSubscriberRecord ??
    connection.model<OwingDocument>('WebhooksSubscriberRecord', new Schema({ siteId: Schema.Types.ObjectId, ...outboxFields }));
  /** Writes a change owing one event and relays it as its writer does; returns the event's id. */
  async function change(siteId: string): Promise<string> {
    const entry = owe({ name: 'content-changed', body: { kind: 'item', action: 'updated', collection: 'posts', id: 'x', revision: 2 } });
    const written = { _id: new Types.ObjectId(), siteId: new Types.ObjectId(siteId), outbox: [entry] };
    await Owing.insertMany([written], { lean: true });
    await relay.relay(Owing, written._id, written);
    return entry.eventId;
  }
  return { webhooks, change, deliveries: models.WebhookDelivery };
}

const newSite = () => new Types.ObjectId().toHexString();
const hook = { url: 'https://hooks.example.test/in', events: ['content-changed' as const], format: 'json' as const };

describe('the webhooks subscriber', () => {
  it('delivers to a webhook another process created after the site’s events began, from the next event on', async () => {
    const a = await processOn(database.connection);
    const b = await processOn(await database.connect());
    const siteId = newSite();
    await a.change(siteId);
    await a.change(siteId);
    const { id } = await b.webhooks(siteId).create(hook);
    const next = await a.change(siteId);
    expect(await a.deliveries.find({ webhookId: new Types.ObjectId(id) }, { eventId: 1, _id: 0 }).lean()).toEqual([{ eventId: next }]);
  });

  it('gives a webhook another process removed nothing new', async () => {
    const a = await processOn(database.connection);
    const b = await processOn(await database.connect());
    const siteId = newSite();
    const { id } = await a.webhooks(siteId).create(hook);
    const before = await a.change(siteId);
    expect(await a.deliveries.countDocuments({ eventId: before })).toBe(1);
    expect(await b.webhooks(siteId).remove(id)).toBe(true);
    const after = await a.change(siteId);
    expect(await a.deliveries.countDocuments({ eventId: after })).toBe(0);
  });

  it('reads the site’s webhooks once while they do not change, and delivers every event', async () => {
    const watched = await openWatchedConnection(database);
    try {
      const a = await processOn(watched.connection);
      const siteId = newSite();
      await a.webhooks(siteId).create(hook);
      await a.change(siteId);
      watched.take();
      const later = [await a.change(siteId), await a.change(siteId)];
      expect(watched.take().filter((command) => command.endsWith(' webhooks'))).toEqual([]);
      expect(await a.deliveries.countDocuments({ eventId: { $in: later } })).toBe(2);
    } finally {
      await watched.close();
    }
  });
});

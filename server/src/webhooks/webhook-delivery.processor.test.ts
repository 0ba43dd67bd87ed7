// The delivery worker against DNS rebinding: a name that answers a public address to the check and 127.0.0.1 to the
// connection must not reach the local receiver; IPv6 spellings of inside addresses are refused like the inside itself.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Types } from 'mongoose';
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { createEventLog, type EventLog } from '../store/event-log.js';
import { registerWebhookModels, WebhookStore } from '../store/webhook.store.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createWebhookDeliveryProcessor } from './webhook-delivery.processor.js';
import { assertPublicTarget, isPrivateAddress, type Lookup } from './target-guard.js';

let database: TestDatabase;
let receiver: Server;
let port: number;
const received: string[] = [];
const siteId = new Types.ObjectId().toHexString();
let store: WebhookStore;
let eventLog: EventLog;

beforeAll(async () => {
  database = await openTestDatabase('webhook-rebinding');
  const models = registerWebhookModels(database.connection);
  await Promise.all([models.Webhook.init(), models.WebhookDelivery.init()]);
  eventLog = await createEventLog(database.connection);
  store = new WebhookStore(models, siteId, eventLog.forSite(siteId));
  receiver = createServer((request, response) => {
    received.push(request.url ?? '');
    response.end();
  });
  await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', () => listening()));
  port = (receiver.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((closed) => receiver.close(() => closed()));
  await database?.close();
});

/** A rebinding name server: the first answer is a public address, every later one 127.0.0.1. */
function rebindingLookup() {
  const asked: string[] = [];
  const lookup: Lookup = async (hostname) => {
    asked.push(hostname);
    return [{ address: asked.length === 1 ? '93.184.216.34' : '127.0.0.1' }];
  };
  return { lookup, asked };
}

function jobOf(deliveryId: string): Job {
  return { data: { siteId, deliveryId }, attemptsMade: 0, opts: { attempts: 6 } } as unknown as Job;
}

describe('delivery to a name that rebinds', () => {
  it('never POSTs to the inside address the second answer names, and records the delivery failed', async () => {
    const { id } = await store.create({ url: `http://localhost:${port}/rebound`, events: ['content-changed'], format: 'json' });
    const deliveryId = await store.createDelivery({ webhookId: id, eventId: 'e-1', event: 'content-changed', seq: 1, payload: { siteId } });
    const { lookup, asked } = rebindingLookup();
    const deliver = createWebhookDeliveryProcessor({
      webhooks: (site) => new WebhookStore(registerWebhookModels(database.connection), site, eventLog.forSite(site)),
      logger: createLogger({ level: 'silent' }),
      studioUrl: 'https://cms.example.test',
      allowPrivate: false,
      lookup,
    });

    await expect(deliver(jobOf(deliveryId))).rejects.toThrow(/loopback or private/);
    // Give a stray request time to arrive before asserting none did.
    await new Promise((settle) => setTimeout(settle, 200));
    expect(received).toEqual([]);
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(await store.delivery(deliveryId)).toMatchObject({ status: 'failed', attempts: 1, error: expect.stringMatching(/private/) });
  });
});

describe('IPv6 spellings of inside addresses', () => {
  it('are private: IPv4-compatible, 6to4, NAT64 local-use and Teredo', () => {
    for (const address of ['::7f00:1', '::a00:1', '2002:7f00:1::', '2002:a9fe:a9fe::1', '64:ff9b:1::7f00:1', '2001:0:4136:e378::1', '::']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    expect(isPrivateAddress('2606:4700:4700::1111')).toBe(false);
  });

  it('are refused as webhook targets', async () => {
    for (const url of [
      'http://[::127.0.0.1]/hook',
      'http://[2002:7f00:1::]/hook',
      'http://[64:ff9b:1::a00:1]/hook',
      'http://[2001::1]/hook',
    ]) {
      await expect(assertPublicTarget(url, { allowPrivate: false }), url).rejects.toThrow(/loopback or private/);
    }
  });
});

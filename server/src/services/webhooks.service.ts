// Webhooks of a site: subscribe (the target checked against SSRF), list, remove, read deliveries, send a test event.
import { randomUUID } from 'node:crypto';
import { type CreateWebhookRequest, ForbiddenError, WEBHOOK_TEST_EVENT, type WebhookDeliveryView } from '@lumibase/shared';
import type { WebhookStore } from '../store/webhook.store.js';
import { maskedWebhookUrl } from '../webhooks/masked-url.js';
import { assertPublicTarget, type Lookup } from '../webhooks/target-guard.js';
import type { WebhooksQueue } from '../webhooks/webhooks.queue.js';

export interface WebhooksServiceOptions {
  webhooks: (siteId: string) => WebhookStore;
  queue: WebhooksQueue;
  allowPrivate: boolean;
  lookup?: Lookup;
}

/** Another site's webhook, an unknown one and a malformed id are one answer, as for every record addressed by id. */
const notHere = () => new ForbiddenError({ message: 'No such webhook in this site' });

export class WebhooksService {
  constructor(private readonly options: WebhooksServiceOptions) {}

  async create(siteId: string, input: CreateWebhookRequest) {
    await assertPublicTarget(input.url, {
      allowPrivate: this.options.allowPrivate,
      ...(this.options.lookup ? { lookup: this.options.lookup } : {}),
    });
    return this.options.webhooks(siteId).create(input);
  }

  /** URLs masked past their first path segment: a Slack webhook's URL is a credential, shown whole only when created. */
  async list(siteId: string) {
    const webhooks = await this.options.webhooks(siteId).list();
    return webhooks.map((webhook) => ({ ...webhook, url: maskedWebhookUrl(webhook.url) }));
  }

  async remove(siteId: string, id: string): Promise<void> {
    if (!(await this.options.webhooks(siteId).remove(id))) throw notHere();
  }

  async deliveries(siteId: string, id: string): Promise<WebhookDeliveryView[]> {
    const store = this.options.webhooks(siteId);
    if (!(await store.get(id))) throw notHere();
    return store.deliveries(id);
  }

  /** Queues a `webhook-test` delivery (seq 0) through the same path as real events. */
  async sendTest(siteId: string, id: string, actor: { name: string }): Promise<WebhookDeliveryView> {
    const store = this.options.webhooks(siteId);
    if (!(await store.get(id))) throw notHere();
    const payload = { siteId, seq: 0, message: `Test event sent by ${actor.name}` };
    const deliveryId = await store.createDelivery({ webhookId: id, eventId: randomUUID(), event: WEBHOOK_TEST_EVENT, seq: 0, payload });
    await this.options.queue.add({ siteId, deliveryId });
    const delivery = await store.delivery(deliveryId);
    if (!delivery) throw new Error('the test delivery vanished');
    return delivery;
  }
}

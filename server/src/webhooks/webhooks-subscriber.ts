// The outbox's webhooks subscriber: turns site events, as the relay appends them to the log, into webhook
// deliveries of the same site, in seq order.
import type { WebhookStore } from '../store/webhook.store.js';
import type { OutboxSubscriber } from '../store/outbox-subscriber.js';
import type { WebhooksQueue } from './webhooks.queue.js';

export interface WebhooksSubscriberOptions {
  webhooks: (siteId: string) => WebhookStore;
  queue: WebhooksQueue;
}

/**
 * Called by the outbox relay after an event got its seq and before the event is cleared from its
 * document: a failure here leaves the event owed, and the relay's retry finds the deliveries already
 * recorded (one per webhook and eventId) and their jobs already queued (jobId = delivery id).
 * Events of one site are appended one at a time, so their deliveries are queued in seq order.
 */
export function createWebhooksSubscriber({ webhooks, queue }: WebhooksSubscriberOptions): OutboxSubscriber {
  return {
    name: 'webhooks',
    async onAppended(event, eventId) {
      const { siteId, seq } = event.payload;
      const store = webhooks(siteId);
      const subscribed = await store.subscribedTo(event.name);
      for (const webhookId of subscribed) {
        const deliveryId = await store.createDelivery({ webhookId, eventId, event: event.name, seq, payload: event.payload });
        await queue.add({ siteId, deliveryId });
      }
    },
  };
}

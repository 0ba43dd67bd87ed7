// The outbox's webhooks subscriber: turns site events, as the relay appends them to the log, into webhook
// deliveries of the same site, in seq order.
import type { SiteHead } from '../store/event-log.store.js';
import type { OutboxSubscriber } from '../store/outbox-subscriber.js';
import type { WebhookStore, WebhookSubscription } from '../store/webhook.store.js';
import type { WebhooksQueue } from './webhooks.queue.js';

export interface WebhooksSubscriberOptions {
  webhooks: (siteId: string) => WebhookStore;
  queue: WebhooksQueue;
  clock?: () => number;
}

/**
 * How long a site's subscriptions are held at most. The generation alone keeps them right; this bounds how long a
 * webhook change whose generation never moved (its process died between the webhook write and the head update)
 * goes unseen.
 */
export const SUBSCRIPTIONS_HELD_MS = 60_000;

/**
 * Called by the outbox relay after an event got its seq and before the event is cleared from its
 * document: a failure here leaves the event owed, and the relay's retry finds the deliveries already
 * recorded (one per webhook and eventId) and their jobs already queued (jobId = delivery id).
 * Events of one site are appended one at a time, so their deliveries are queued in seq order.
 *
 * A site's subscriptions are read once per webhooks generation, not once per event. Every webhook change moves the
 * generation on the site's event head after the change is written, and every append's head update returns the
 * generation: updates of one document are atomic and ordered, so an event whose head update returned `g` was appended
 * after every webhook change up to `g` was written. Subscriptions read after that (`read.generation === g`) hold all
 * of those changes, so the event goes to the webhooks that existed at `g` — and perhaps to one whose change is
 * written but whose generation had not moved yet, as a read at dispatch time always allowed. Without a head (a retry
 * that found its event in the log, or a failed head update) they are read as before.
 */
export function createWebhooksSubscriber({ webhooks, queue, clock = Date.now }: WebhooksSubscriberOptions): OutboxSubscriber {
  const held = new Map<string, { generation: number; readAt: number; subscriptions: WebhookSubscription[] }>();

  async function subscribedTo(store: WebhookStore, event: string, head: SiteHead | undefined): Promise<string[]> {
    if (!head) return store.subscribedTo(event);
    let known = held.get(store.siteId);
    if (!known || known.generation !== head.webhooksGeneration || clock() - known.readAt > SUBSCRIPTIONS_HELD_MS) {
      const readAt = clock();
      const subscriptions = await store.subscriptions();
      known = { generation: head.webhooksGeneration, readAt, subscriptions };
      // Relays of two documents of a site may read at once: a read for an older generation does not replace a newer one.
      const current = held.get(store.siteId);
      if (!current || current.generation <= known.generation) held.set(store.siteId, known);
    }
    return known.subscriptions.filter((subscription) => subscription.events.includes(event)).map((subscription) => subscription.id);
  }

  return {
    name: 'webhooks',
    async onAppended(event, eventId, head) {
      const { siteId, seq } = event.payload;
      const store = webhooks(siteId);
      for (const webhookId of await subscribedTo(store, event.name, head)) {
        const deliveryId = await store.createDelivery({ webhookId, eventId, event: event.name, seq, payload: event.payload });
        await queue.add({ siteId, deliveryId });
      }
    },
  };
}

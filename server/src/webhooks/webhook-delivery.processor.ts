// Delivers one webhook: sign, POST, record the attempt; a non-2xx or network error throws so BullMQ retries with backoff.
import { WebhookDeliveryJob } from '@lumibase/shared';
import { type Job, UnrecoverableError } from 'bullmq';
import { Agent, fetch } from 'undici';
import type { Logger } from '../logger.js';
import type { WebhookStore } from '../store/webhook.store.js';
import { assertPublicTarget, guardedLookup, type Lookup, PRIVATE_TARGET } from './target-guard.js';
import { webhookBody, webhookHeaders } from './webhook-message.js';

const DELIVERY_TIMEOUT_MS = 10_000;

export interface WebhookDeliveryProcessorOptions {
  webhooks: (siteId: string) => WebhookStore;
  logger: Logger;
  /** Base of the Studio links in Slack messages. */
  studioUrl: string;
  allowPrivate: boolean;
  /** The resolver of both checks (tests inject one that answers differently each time). */
  lookup?: Lookup;
  now?: () => Date;
}

export function createWebhookDeliveryProcessor({
  webhooks,
  logger,
  studioUrl,
  allowPrivate,
  lookup,
  now = () => new Date(),
}: WebhookDeliveryProcessorOptions): (job: Job) => Promise<void> {
  // The socket connects to the addresses its own lookup checked: a second answer cannot slip in between.
  const dispatcher = allowPrivate ? undefined : new Agent({ connect: { lookup: guardedLookup(lookup) } });
  return async (job: Job) => {
    const parsed = WebhookDeliveryJob.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError('malformed webhook job');
    const { siteId, deliveryId } = parsed.data;
    const store = webhooks(siteId);
    const task = await store.task(deliveryId);
    if (!task) return; // The webhook was removed meanwhile: nothing to deliver.
    const { delivery, webhook } = task;
    const finalAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

    // Checked again at delivery time: DNS may have changed since the webhook was created.
    try {
      await assertPublicTarget(webhook.url, { allowPrivate, ...(lookup ? { lookup } : {}) });
    } catch (error) {
      await store.recordAttempt(deliveryId, { status: 'failed', error: (error as Error).message });
      throw new UnrecoverableError((error as Error).message);
    }

    const body = webhookBody({ format: webhook.format, event: delivery.event, deliveryId, payload: delivery.payload, studioUrl });
    const headers = webhookHeaders({ secret: webhook.secret, event: delivery.event, deliveryId, body, now: now() });
    let responseStatus: number | undefined;
    let failure: string | undefined;
    try {
      // No redirects: a public URL must not bounce the request to an internal one.
      const response = await fetch(webhook.url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
        ...(dispatcher ? { dispatcher } : {}),
      });
      responseStatus = response.status;
      await response.body?.cancel();
      if (response.status < 200 || response.status > 299) failure = `The receiver answered ${response.status}`;
    } catch (error) {
      if ((error as { cause?: { code?: unknown } }).cause?.code === PRIVATE_TARGET) {
        const refused = ((error as Error).cause as Error).message;
        await store.recordAttempt(deliveryId, { status: 'failed', error: refused });
        throw new UnrecoverableError(refused);
      }
      failure = (error as Error).message;
    }
    if (!failure) {
      await store.recordAttempt(deliveryId, { status: 'delivered', responseStatus });
      return;
    }
    await store.recordAttempt(deliveryId, { status: finalAttempt ? 'failed' : 'pending', responseStatus, error: failure });
    logger.warn(
      { webhookId: webhook.id, deliveryId, event: delivery.event, responseStatus, reason: failure, finalAttempt },
      'webhook delivery failed',
    );
    throw new Error(failure);
  };
}

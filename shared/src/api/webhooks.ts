// Webhooks (site-scoped, users:write): subscriptions to site events, delivered signed through the `webhooks` queue.
import { z } from 'zod';
import { SiteEventName } from '../events.js';

export const WEBHOOKS_QUEUE = 'webhooks';
export const WEBHOOK_FORMATS = ['json', 'slack'] as const;
export const WebhookFormat = z.enum(WEBHOOK_FORMATS);
export type WebhookFormat = z.infer<typeof WebhookFormat>;
/** The event a "send test event" delivers; not a site event (no seq of its own). */
export const WEBHOOK_TEST_EVENT = 'webhook-test';

export const WebhookUrl = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .refine((url) => !/^[a-z]+:\/\/[^/]*@/i.test(url), 'must not carry credentials');

export const CreateWebhookRequest = z.strictObject({
  url: WebhookUrl,
  events: z.array(SiteEventName).min(1).max(SiteEventName.options.length),
  format: WebhookFormat.default('json'),
  /** Generated when absent; shown only in the answer to this request. */
  secret: z.string().min(16).max(200).optional(),
});
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequest>;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const DeliveryStatus = z.enum(DELIVERY_STATUSES);

export const WebhookDeliveryView = z.object({
  id: z.string(),
  event: z.string(),
  /** The site event's seq (0 for a test event). */
  seq: z.number().int().min(0),
  status: DeliveryStatus,
  attempts: z.number().int().min(0),
  responseStatus: z.number().int().optional(),
  error: z.string().optional(),
  createdAt: z.iso.datetime(),
});
export type WebhookDeliveryView = z.infer<typeof WebhookDeliveryView>;

export const WebhookView = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(SiteEventName),
  format: WebhookFormat,
  createdAt: z.iso.datetime(),
  lastDelivery: WebhookDeliveryView.optional(),
});
export type WebhookView = z.infer<typeof WebhookView>;

export const CreatedWebhookResponse = z.object({ data: WebhookView.extend({ secret: z.string() }) });
export const WebhookListResponse = z.object({ data: z.array(WebhookView) });
export const WebhookDeliveryListResponse = z.object({ data: z.array(WebhookDeliveryView) });
export const WebhookDeliveryResponse = z.object({ data: WebhookDeliveryView });

/** One delivery's job: everything else is read from the delivery record. */
export const WebhookDeliveryJob = z.object({ siteId: z.string().min(1), deliveryId: z.string().min(1) });
export type WebhookDeliveryJob = z.infer<typeof WebhookDeliveryJob>;

/** A json-format delivery's body: the event's name and its payload (seq, siteId and the event's own fields). */
export const WebhookJsonBody = z.object({ event: z.string(), deliveryId: z.string(), payload: z.record(z.string(), z.unknown()) });
export const WebhookSlackBody = z.object({ text: z.string() });

// Webhooks and their deliveries, per site. The secret is stored as given (it must sign), and never leaves this store
// except in the answer that created it and to the delivery worker.
import { randomBytes } from 'node:crypto';
import type { SiteEventName, WebhookDeliveryView, WebhookFormat, WebhookView } from '@lumibase/shared';
import { type Connection, type Model, Schema, type Types } from 'mongoose';
import { isDuplicateKeyError } from './duplicate-key.js';
import { parseObjectId, toId } from './object-id.js';
import { SiteScopedStore } from './site-scoped.js';

interface WebhookDocument {
  _id: Types.ObjectId;
  siteId: Types.ObjectId;
  url: string;
  events: SiteEventName[];
  format: WebhookFormat;
  secret: string;
  createdAt: Date;
}

interface DeliveryDocument {
  _id: Types.ObjectId;
  siteId: Types.ObjectId;
  webhookId: Types.ObjectId;
  /** The site event's eventId (or a test's own id): one delivery per webhook and event. */
  eventId: string;
  event: string;
  seq: number;
  /** The event payload as JSON text (its keys may be ones MongoDB refuses). */
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  responseStatus?: number;
  error?: string;
  createdAt: Date;
}

export function registerWebhookModels(connection: Connection) {
  const webhooks = new Schema<WebhookDocument>(
    {
      siteId: { type: Schema.Types.ObjectId, required: true },
      url: { type: String, required: true },
      events: { type: [String], required: true },
      format: { type: String, required: true },
      secret: { type: String, required: true },
      createdAt: { type: Date, required: true, default: () => new Date() },
    },
    { collection: 'webhooks', versionKey: false },
  );
  webhooks.index({ siteId: 1, events: 1 });
  const deliveries = new Schema<DeliveryDocument>(
    {
      siteId: { type: Schema.Types.ObjectId, required: true },
      webhookId: { type: Schema.Types.ObjectId, required: true },
      eventId: { type: String, required: true },
      event: { type: String, required: true },
      seq: { type: Number, required: true },
      payload: { type: String, required: true },
      status: { type: String, required: true, default: 'pending' },
      attempts: { type: Number, required: true, default: 0 },
      responseStatus: { type: Number },
      error: { type: String },
      createdAt: { type: Date, required: true, default: () => new Date() },
    },
    { collection: 'webhook_deliveries', versionKey: false },
  );
  deliveries.index({ webhookId: 1, eventId: 1 }, { unique: true });
  deliveries.index({ siteId: 1, webhookId: 1, createdAt: -1 });
  // The reconciler's look for deliveries still pending long after they were queued (their job lost with Redis).
  deliveries.index({ status: 1, createdAt: 1 });
  return {
    Webhook: (connection.models.Webhook ?? connection.model<WebhookDocument>('Webhook', webhooks)) as Model<WebhookDocument>,
    WebhookDelivery: (connection.models.WebhookDelivery ??
      connection.model<DeliveryDocument>('WebhookDelivery', deliveries)) as Model<DeliveryDocument>,
  };
}

export type WebhookModels = ReturnType<typeof registerWebhookModels>;

/** What the delivery worker needs: the delivery, and its webhook with the secret. */
export interface DeliveryTask {
  delivery: WebhookDeliveryView & { payload: Record<string, unknown> };
  webhook: { id: string; url: string; format: WebhookFormat; secret: string };
}

function deliveryView(document: DeliveryDocument): WebhookDeliveryView {
  return {
    id: toId(document._id),
    event: document.event,
    seq: document.seq,
    status: document.status,
    attempts: document.attempts,
    ...(document.responseStatus !== undefined ? { responseStatus: document.responseStatus } : {}),
    ...(document.error !== undefined ? { error: document.error } : {}),
    createdAt: document.createdAt.toISOString(),
  };
}

function webhookView(document: WebhookDocument, last?: DeliveryDocument): WebhookView {
  return {
    id: toId(document._id),
    url: document.url,
    events: document.events,
    format: document.format,
    createdAt: document.createdAt.toISOString(),
    ...(last ? { lastDelivery: deliveryView(last) } : {}),
  };
}

export const DELIVERIES_LISTED = 50;

/** A webhook's subscription, as the webhooks subscriber holds it. */
export interface WebhookSubscription {
  id: string;
  events: string[];
}

export class WebhookStore extends SiteScopedStore {
  /**
   * `log`: the site's event log, told after every change of the site's webhooks (its generation moves), so that
   * subscriptions held by any process are read again before the next event is delivered.
   */
  constructor(
    private readonly models: WebhookModels,
    siteId: string,
    private readonly log: { webhooksChanged(): Promise<void> },
  ) {
    super(siteId);
  }

  async create(input: { url: string; events: SiteEventName[]; format: WebhookFormat; secret?: string | undefined }) {
    const secret = input.secret ?? `whsec_${randomBytes(24).toString('base64url')}`;
    const created = await this.models.Webhook.create(
      this.owned({ url: input.url, events: input.events, format: input.format, secret, createdAt: new Date() }),
    );
    await this.log.webhooksChanged();
    return { ...webhookView(created.toObject()), secret };
  }

  async list(): Promise<WebhookView[]> {
    const documents = await this.models.Webhook.find(this.scoped({})).sort({ createdAt: 1, _id: 1 }).lean<WebhookDocument[]>();
    return Promise.all(
      documents.map(async (document) => {
        const last = await this.models.WebhookDelivery.findOne(this.scoped({ webhookId: document._id }))
          .sort({ createdAt: -1, _id: -1 })
          .lean<DeliveryDocument>();
        return webhookView(document, last ?? undefined);
      }),
    );
  }

  /** This site's webhook, or null (another site's, unknown, or a malformed id). */
  async get(id: string): Promise<(WebhookView & { secret: string }) | null> {
    const objectId = parseObjectId(id);
    if (!objectId) return null;
    const document = await this.models.Webhook.findOne(this.scoped({ _id: objectId })).lean<WebhookDocument>();
    return document ? { ...webhookView(document), secret: document.secret } : null;
  }

  async remove(id: string): Promise<boolean> {
    const objectId = parseObjectId(id);
    if (!objectId) return false;
    const { deletedCount } = await this.models.Webhook.deleteOne(this.scoped({ _id: objectId }));
    if (deletedCount === 0) return false;
    await this.log.webhooksChanged();
    await this.models.WebhookDelivery.deleteMany(this.scoped({ webhookId: objectId }));
    return true;
  }

  /** Every webhook of the site with the events it is subscribed to. */
  async subscriptions(): Promise<WebhookSubscription[]> {
    const documents = await this.models.Webhook.find(this.scoped({}), { _id: 1, events: 1 }).lean<
      Array<Pick<WebhookDocument, '_id' | 'events'>>
    >();
    return documents.map((document) => ({ id: toId(document._id), events: document.events }));
  }

  /** Ids of the webhooks subscribed to `event`. */
  async subscribedTo(event: string): Promise<string[]> {
    const documents = await this.models.Webhook.find(this.scoped({ events: event }), { _id: 1 }).lean<{ _id: Types.ObjectId }[]>();
    return documents.map((document) => toId(document._id));
  }

  /** Records a delivery; the same (webhook, event) twice returns the first one's id (relays are at-least-once). */
  async createDelivery(input: { webhookId: string; eventId: string; event: string; seq: number; payload: unknown }): Promise<string> {
    const webhookId = parseObjectId(input.webhookId);
    if (!webhookId) throw new TypeError(`bad webhook id ${input.webhookId}`);
    try {
      const created = await this.models.WebhookDelivery.create(
        this.owned({ webhookId, eventId: input.eventId, event: input.event, seq: input.seq, payload: JSON.stringify(input.payload) }),
      );
      return toId(created._id);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      const existing = await this.models.WebhookDelivery.findOne(this.scoped({ webhookId, eventId: input.eventId }), { _id: 1 }).lean();
      if (!existing) throw error;
      return toId(existing._id);
    }
  }

  async deliveries(webhookId: string): Promise<WebhookDeliveryView[]> {
    const objectId = parseObjectId(webhookId);
    if (!objectId) return [];
    const documents = await this.models.WebhookDelivery.find(this.scoped({ webhookId: objectId }))
      .sort({ createdAt: -1, _id: -1 })
      .limit(DELIVERIES_LISTED)
      .lean<DeliveryDocument[]>();
    return documents.map(deliveryView);
  }

  async delivery(id: string): Promise<WebhookDeliveryView | null> {
    const objectId = parseObjectId(id);
    if (!objectId) return null;
    const document = await this.models.WebhookDelivery.findOne(this.scoped({ _id: objectId })).lean<DeliveryDocument>();
    return document ? deliveryView(document) : null;
  }

  /** The delivery and its webhook, or null when either is gone (the webhook was removed meanwhile). */
  async task(deliveryId: string): Promise<DeliveryTask | null> {
    const objectId = parseObjectId(deliveryId);
    if (!objectId) return null;
    const delivery = await this.models.WebhookDelivery.findOne(this.scoped({ _id: objectId })).lean<DeliveryDocument>();
    if (!delivery) return null;
    const webhook = await this.models.Webhook.findOne(this.scoped({ _id: delivery.webhookId })).lean<WebhookDocument>();
    if (!webhook) return null;
    return {
      delivery: { ...deliveryView(delivery), payload: JSON.parse(delivery.payload) as Record<string, unknown> },
      webhook: { id: toId(webhook._id), url: webhook.url, format: webhook.format, secret: webhook.secret },
    };
  }

  async recordAttempt(
    deliveryId: string,
    outcome: { status: 'pending' | 'delivered' | 'failed'; responseStatus?: number | undefined; error?: string | undefined },
  ): Promise<void> {
    const objectId = parseObjectId(deliveryId);
    if (!objectId) return;
    const set: Record<string, unknown> = { status: outcome.status };
    if (outcome.responseStatus !== undefined) set.responseStatus = outcome.responseStatus;
    if (outcome.error !== undefined) set.error = outcome.error;
    await this.models.WebhookDelivery.updateOne(this.scoped({ _id: objectId }), {
      $set: set,
      $inc: { attempts: 1 },
      ...(outcome.error === undefined ? { $unset: { error: 1 } } : {}),
    });
  }
}

/**
 * Across sites on purpose (the reconciler's view): deliveries still pending though queued before `olderThan`, oldest
 * first, as the jobs that deliver them. Each is then handled within its own site.
 */
export async function pendingDeliveriesBefore(
  models: WebhookModels,
  olderThan: Date,
  limit: number,
): Promise<Array<{ siteId: string; deliveryId: string }>> {
  const documents = await models.WebhookDelivery.find({ status: 'pending', createdAt: { $lt: olderThan } }, { _id: 1, siteId: 1 })
    .sort({ createdAt: 1 })
    .limit(limit)
    .lean<Array<{ _id: Types.ObjectId; siteId: Types.ObjectId }>>();
  return documents.map((document) => ({ siteId: document.siteId.toString(), deliveryId: toId(document._id) }));
}

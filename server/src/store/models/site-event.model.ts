// site_events: the per-site, gap-free event log that replays missed events to reconnecting clients.
import { SITE_EVENT_NAMES, type SiteEventName } from '@lumibase/shared';
import { type Connection, Schema, type Types } from 'mongoose';

export interface SiteEventDocument {
  _id: Types.ObjectId;
  siteId: Types.ObjectId;
  seq: number;
  /** The owed event's id: relaying the same owed event twice finds it here instead of appending again. */
  eventId: string;
  name: SiteEventName;
  /** The event body as JSON text: approval arguments may hold any keys, including ones MongoDB forbids. */
  body: string;
  createdAt: Date;
}

export interface SiteEventHeadDocument {
  _id: Types.ObjectId;
  siteId: Types.ObjectId;
  /** Highest seq ever allocated: survives the TTL so a quiet site never restarts at 1. */
  seq: number;
  /**
   * Moved by every change of the site's webhooks, after the change: an append's head update returns it, so the
   * webhooks subscriber knows with no read of its own whether the subscriptions it holds are still the site's.
   */
  webhooksGeneration?: number;
}

export const DEFAULT_EVENT_RETENTION_DAYS = 7;

export function registerSiteEventModels(connection: Connection, { retentionDays = DEFAULT_EVENT_RETENTION_DAYS } = {}) {
  const events = new Schema<SiteEventDocument>(
    {
      siteId: { type: Schema.Types.ObjectId, required: true },
      seq: { type: Number, required: true },
      eventId: { type: String, required: true },
      name: { type: String, enum: SITE_EVENT_NAMES, required: true },
      body: { type: String, required: true },
      createdAt: { type: Date, required: true, default: () => new Date() },
    },
    { collection: 'site_events', versionKey: false },
  );
  // The unique (siteId, seq) index is what makes allocation gap-free: two appenders cannot take one seq.
  events.index({ siteId: 1, seq: 1 }, { unique: true });
  events.index({ siteId: 1, eventId: 1 }, { unique: true });
  events.index({ createdAt: 1 }, { expireAfterSeconds: retentionDays * 24 * 3600 });

  const heads = new Schema<SiteEventHeadDocument>(
    {
      siteId: { type: Schema.Types.ObjectId, required: true, unique: true },
      seq: { type: Number, required: true },
      webhooksGeneration: { type: Number },
    },
    { collection: 'site_event_heads', versionKey: false },
  );

  return {
    SiteEvent: connection.models.SiteEvent ?? connection.model<SiteEventDocument>('SiteEvent', events),
    SiteEventHead: connection.models.SiteEventHead ?? connection.model<SiteEventHeadDocument>('SiteEventHead', heads),
  } as {
    SiteEvent: import('mongoose').Model<SiteEventDocument>;
    SiteEventHead: import('mongoose').Model<SiteEventHeadDocument>;
  };
}

export type SiteEventModels = ReturnType<typeof registerSiteEventModels>;

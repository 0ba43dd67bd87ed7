// ai_notices for one site: the `warn`-tier calls that ran at once, each stored with the `copilot-notice` site event it
// owes (one document write; the outbox relay gives it its seq and pushes it to every socket of the site).
import type { CopilotNotice } from '@lumibase/shared';
import { type Connection, type InferSchemaType, type Model, Schema, Types } from 'mongoose';
import { decodeJson, encodeJson } from '../json-codec.js';
import { type OutboxRelay, outboxFields, owe } from '../outbox.js';
import { SiteScopedStore } from '../site-scoped.js';

const noticeSchema = new Schema(
  {
    siteId: { type: Schema.Types.ObjectId, required: true },
    /** The notice as sent (JSON text: arguments may hold keys MongoDB refuses in documents). */
    noticeJson: { type: String, required: true },
    createdAt: { type: Date, required: true },
    ...outboxFields,
  },
  { collection: 'ai_notices', versionKey: false, autoIndex: false, minimize: false, strict: 'throw' },
);
noticeSchema.index({ siteId: 1, createdAt: -1 });
// A notice is news: after 30 days it is in the audit, not in the list.
noticeSchema.index({ createdAt: 1 }, { expireAfterSeconds: 30 * 24 * 60 * 60 });

export type NoticeModel = Model<InferSchemaType<typeof noticeSchema>>;

export function registerNoticeModel(connection: Connection): NoticeModel {
  return (connection.models.AiNotice as NoticeModel | undefined) ?? connection.model('AiNotice', noticeSchema);
}

export type NewNotice = Omit<CopilotNotice, 'id'>;

export interface NoticeRepository {
  /** Stores the notice and relays its `copilot-notice` event. */
  insert(notice: NewNotice): Promise<CopilotNotice>;
  /** The newest first. */
  latest(limit: number): Promise<CopilotNotice[]>;
}

export const NOTICE_LIST_MAX = 50;

export class NoticeStore extends SiteScopedStore implements NoticeRepository {
  constructor(
    private readonly model: NoticeModel,
    siteId: string,
    private readonly relay: OutboxRelay,
  ) {
    super(siteId);
  }

  async insert(notice: NewNotice): Promise<CopilotNotice> {
    const _id = new Types.ObjectId();
    const stored: CopilotNotice = { id: _id.toHexString(), ...notice };
    const document = this.owned({
      _id,
      noticeJson: encodeJson(stored),
      createdAt: new Date(notice.createdAt),
      outbox: [owe({ name: 'copilot-notice', body: { notice: stored } })],
    });
    await this.model.insertMany([document], { lean: true });
    await this.relay.relay(this.model, _id, document);
    return stored;
  }

  async latest(limit: number): Promise<CopilotNotice[]> {
    const documents = await this.model
      .find(this.scoped({ deletedAt: { $exists: false } }), { noticeJson: 1 })
      .sort({ createdAt: -1, _id: -1 })
      .limit(Math.min(limit, NOTICE_LIST_MAX))
      .lean<{ noticeJson: string }[]>();
    return documents.map((document) => decodeJson(document.noticeJson) as CopilotNotice);
  }
}

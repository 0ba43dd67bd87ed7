// ai_audit for one site: one entry per Copilot action, newest first.
import type { AuditEntry } from '@lumibase/shared';
import type { AiModels, AuditDocument } from './ai-models.js';
import { decodeJson, encodeJson } from '../json-codec.js';
import { SiteScopedStore } from '../site-scoped.js';

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'siteId'>;

export interface AuditRepository {
  readonly siteId: string;
  append(entry: NewAuditEntry): Promise<AuditEntry>;
  list(options?: { limit?: number; offset?: number }): Promise<AuditEntry[]>;
  count(): Promise<number>;
}

function toAuditEntry(document: AuditDocument): AuditEntry {
  const entry: AuditEntry = {
    id: document._id.toHexString(),
    siteId: document.siteId.toString(),
    action: document.action,
    actor: { id: document.actor.id, name: document.actor.name ?? '' },
    createdAt: document.createdAt,
  };
  if (document.skillName != null) entry.skillName = document.skillName;
  if (document.approvalId != null) entry.approvalId = document.approvalId;
  if (document.detailJson != null) entry.detail = decodeJson(document.detailJson) as Record<string, unknown>;
  return entry;
}

export class AuditStore extends SiteScopedStore implements AuditRepository {
  constructor(
    private readonly models: Pick<AiModels, 'audit'>,
    siteId: string,
  ) {
    super(siteId);
  }

  async append(entry: NewAuditEntry): Promise<AuditEntry> {
    const { detail, ...rest } = entry;
    const document = this.owned({ ...rest, ...(detail === undefined ? {} : { detailJson: encodeJson(detail) }) });
    const [created] = await this.models.audit.insertMany([document], { lean: true });
    return { ...entry, id: created!._id.toHexString(), siteId: this.siteId };
  }

  async list({ limit = 25, offset = 0 }: { limit?: number; offset?: number } = {}): Promise<AuditEntry[]> {
    const documents = await this.models.audit
      .find(this.scoped({}))
      .sort({ createdAt: -1, _id: -1 })
      .skip(offset)
      .limit(limit)
      .lean<AuditDocument[]>();
    return documents.map(toAuditEntry);
  }

  count(): Promise<number> {
    return this.models.audit.countDocuments(this.scoped({}));
  }
}

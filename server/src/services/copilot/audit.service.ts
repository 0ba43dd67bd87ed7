// The site's Copilot audit trail, newest first.
import type { AuditEntry } from '@lumibase/shared';
import type { AiStoreFactory } from '../../store/ai/ai-stores.js';
import type { Page, PageOf } from '../../store/object-id.js';

export class AuditService {
  constructor(private readonly stores: Pick<AiStoreFactory, 'forSite'>) {}

  async list(siteId: string, page: Page): Promise<PageOf<AuditEntry>> {
    const { audit } = this.stores.forSite(siteId);
    const [records, total] = await Promise.all([audit.list(page), audit.count()]);
    return { records, total };
  }
}

// The site's Copilot audit trail, newest first.
import type { AuditEntry, AuditVerification } from '@lumibase/shared';
import type { AiStoreFactory } from '../store/ai/ai-stores.js';
import type { Page, PageOf } from '../store/object-id.js';

export class AuditService {
  constructor(private readonly stores: Pick<AiStoreFactory, 'forSite'>) {}

  async list(siteId: string, page: Page): Promise<PageOf<AuditEntry>> {
    const { audit } = this.stores.forSite(siteId);
    const [records, total] = await Promise.all([audit.list(page), audit.count()]);
    return { records, total };
  }

  /** Walks the site's hash chain; `brokenAt` names the first seq whose hash or link does not hold. */
  verify(siteId: string): Promise<AuditVerification> {
    return this.stores.forSite(siteId).audit.verify();
  }
}

// Sites: a superadmin creates them; everyone lists the ones they may enter.
import type { SiteView, UserView } from '@lumibase/shared';
import type { Page, PageOf } from '../store/object-id.js';
import type { Stores } from '../store/stores.js';

export class SitesService {
  constructor(private readonly stores: Pick<Stores, 'sites' | 'userMemberships'>) {}

  async create(name: string): Promise<SiteView> {
    return this.stores.sites.create(name);
  }

  /** All sites for a superadmin; the sites of the user's memberships for anyone else. */
  async listFor(user: UserView, page: Page): Promise<PageOf<SiteView>> {
    if (user.isSuperadmin) return this.stores.sites.list(page);
    const memberships = await this.stores.userMemberships.listForUser(user.id);
    const sites = await this.stores.sites.findByIds(memberships.map((membership) => membership.siteId));
    return { records: sites.slice(page.offset, page.offset + page.limit), total: sites.length };
  }
}

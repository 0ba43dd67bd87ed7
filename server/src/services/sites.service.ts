// Sites: a superadmin creates, renames and deletes them; everyone lists the ones they may enter.
import { NotFoundError, type SiteView, type UserView, ValidationError } from '@lumibase/shared';
import type { Page, PageOf } from '../store/object-id.js';
import type { Stores } from '../store/stores.js';
import type { DomainEvents } from './domain-events.js';

export class SitesService {
  constructor(
    private readonly stores: Pick<Stores, 'sites' | 'userMemberships'>,
    private readonly events?: DomainEvents,
  ) {}

  async create(name: string): Promise<SiteView> {
    return this.stores.sites.create(name);
  }

  async rename(id: string, name: string): Promise<SiteView> {
    const site = await this.stores.sites.rename(id, name);
    if (!site) throw new NotFoundError({ message: 'No such site' });
    return site;
  }

  /**
   * Deletes the site and everything in it, once `confirm` is its exact name (else ValidationError):
   * a slip of the mouse must not empty a site. Its members' sockets, and any other in it, disconnect.
   */
  async remove(id: string, confirm: string): Promise<void> {
    const site = await this.stores.sites.findById(id);
    if (!site) throw new NotFoundError({ message: 'No such site' });
    if (confirm !== site.name) {
      throw new ValidationError({
        message: "Type the site's exact name to delete it",
        details: [{ path: 'confirm', message: 'Does not match' }],
      });
    }
    const members = await this.stores.userMemberships.userIdsInSite(site.id);
    await this.stores.sites.deleteWithContents(site.id);
    for (const userId of members) this.events?.emit('membership-removed', { siteId: site.id, userId });
    this.events?.emit('site-removed', { siteId: site.id });
  }

  /** All sites for a superadmin; the sites of the user's memberships for anyone else. */
  async listFor(user: UserView, page: Page): Promise<PageOf<SiteView>> {
    if (user.isSuperadmin) return this.stores.sites.list(page);
    const memberships = await this.stores.userMemberships.listForUser(user.id);
    const sites = await this.stores.sites.findByIds(memberships.map((membership) => membership.siteId));
    return { records: sites.slice(page.offset, page.offset + page.limit), total: sites.length };
  }
}

// Which sites a user may act in, with which role and capabilities: the rule behind tenancy, /auth/me and sockets.
import {
  effectiveCapabilities,
  ForbiddenError,
  type GrantedCapability,
  type SiteAccess,
  type SiteView,
  type UserView,
  WILDCARD,
} from '@lumibase/shared';
import { parseObjectId } from '../store/object-id.js';
import type { Stores } from '../store/stores.js';
import { LearnedUnderEpoch } from '../store/learned-under-epoch.js';

export interface ResolvedSite {
  site: SiteView;
  role: SiteAccess['role'];
  capabilities: GrantedCapability[];
}

/** `*` is a superadmin's alone: held by anyone else (it cannot be granted, but data outlives rules) it is dropped. */
function capabilitiesFor(user: UserView, role: SiteAccess['role'], extras: readonly GrantedCapability[]): GrantedCapability[] {
  if (role === 'superadmin') return [WILDCARD];
  const capabilities = effectiveCapabilities(role, extras);
  return user.isSuperadmin ? capabilities : capabilities.filter((capability) => capability !== WILDCARD);
}

const refusal = () => new ForbiddenError({ message: 'No access to this site', reason: 'not-a-member' });

export class SiteAccessService {
  /** Resolutions by user and site, as last read under an access epoch (only grants: a refusal is read again). */
  private readonly learned = new LearnedUnderEpoch<ResolvedSite>();
  /** Users by id, as `resolveUser` last read them under an access epoch. */
  private readonly users = new LearnedUnderEpoch<UserView>();

  constructor(private readonly stores: Pick<Stores, 'users' | 'sites' | 'userMemberships' | 'forSite' | 'accessEpochs'>) {}

  /** Every site the user may enter; a superadmin enters all of them as `superadmin` holding `*`. */
  async sitesOf(user: UserView): Promise<SiteAccess[]> {
    if (user.isSuperadmin) {
      const sites = await this.stores.sites.listAll();
      return sites.map((site) => ({ ...site, role: 'superadmin', capabilities: [WILDCARD] }));
    }
    const memberships = await this.stores.userMemberships.listForUser(user.id);
    const sites = await this.stores.sites.findByIds(memberships.map((membership) => membership.siteId));
    const bySite = new Map(memberships.map((membership) => [membership.siteId, membership]));
    return sites.map((site) => {
      const membership = bySite.get(site.id)!;
      return { ...site, role: membership.role, capabilities: capabilitiesFor(user, membership.role, membership.capabilities) };
    });
  }

  /**
   * The site `siteId` names and the user's standing in it. A malformed id, an unknown site and a
   * site the user is not a member of are one and the same refusal, so ids cannot be probed. `epoch`: the access
   * epoch the caller read before anything else of this request (Authenticated.epoch); a grant learned under it
   * answers without a read.
   */
  async resolve(user: UserView, siteId: string, epoch?: string): Promise<ResolvedSite> {
    if (!parseObjectId(siteId)) throw refusal();
    if (epoch === undefined) return this.read(user, siteId);
    const key = `${user.id}|${user.isSuperadmin ? 's' : 'm'}|${siteId}`;
    const known = this.learned.get(key, epoch);
    // A copy: what one request does with its capabilities must not reach the next.
    if (known) return { ...known, capabilities: [...known.capabilities] };
    const resolved = await this.read(user, siteId);
    this.learned.set(key, epoch, resolved);
    return resolved;
  }

  private async read(user: UserView, siteId: string): Promise<ResolvedSite> {
    // Both lookups at once: this runs on every site-scoped request.
    const [site, membership] = await Promise.all([
      this.stores.sites.findById(siteId),
      user.isSuperadmin ? null : this.stores.forSite(siteId).members.get(user.id),
    ]);
    if (!site) throw refusal();
    if (user.isSuperadmin) return { site, role: 'superadmin', capabilities: [WILDCARD] };
    if (!membership) throw refusal();
    return { site, role: membership.role, capabilities: capabilitiesFor(user, membership.role, membership.capabilities) };
  }

  /**
   * `resolve` for a user named by id: work done on their authority outside a request (an approved skill, the
   * Copilot's turn after it). Under the access epoch, as a request is: one read when nothing was revoked.
   */
  async resolveUser(userId: string, siteId: string): Promise<ResolvedSite & { user: UserView; epoch: string }> {
    const epoch = await this.stores.accessEpochs.current();
    let user = this.users.get(userId, epoch);
    if (!user) {
      user = (await this.stores.users.findById(userId)) ?? undefined;
      if (!user) throw refusal();
      this.users.set(userId, epoch, user);
    }
    return { user, epoch, ...(await this.resolve(user, siteId, epoch)) };
  }
}

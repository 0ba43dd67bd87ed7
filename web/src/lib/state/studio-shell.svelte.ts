// The signed-in Studio's frame (the (app) layout): the navigation's sections for what this member may do, the site
// search, the drawer on small screens, and choosing a site or signing out.
import type { Capability } from '@lumibase/shared';
import type { NavSection } from '../components/shell/Sidebar.svelte';
import type { ContentState } from './content.svelte.js';
import type { Address } from './page-context.js';
import { SiteSearch } from './site-search.svelte.js';
import type { ToastState } from './toasts.svelte.js';

/** Pages that work without a chosen site. */
const SITE_FREE_PATHS = ['/admin/'];

export interface StudioShellOptions extends Address {
  studio: {
    readonly content: ContentState | undefined;
    readonly approvals: { readonly total: number | undefined } | undefined;
    readonly toasts: Pick<ToastState, 'show'>;
    readonly session: { readonly isSuperadmin: boolean; signOut(): Promise<void> };
    readonly site: { readonly current: { id: string } | undefined; can(...required: Capability[]): boolean; choose(siteId: string): void };
  };
}

export class StudioShell {
  /** Below 1024 px the navigation is a drawer. */
  navOpen = $state(false);

  readonly #options: StudioShellOptions;

  constructor(options: StudioShellOptions) {
    this.#options = options;
  }

  /** Semantic search in the current site, for members who may read its content; a new site starts a fresh search. */
  readonly siteSearch: SiteSearch | undefined = $derived.by(() => {
    const content = this.#options.studio.content;
    if (!content || !this.#options.studio.site.can('content:read')) return undefined;
    return new SiteSearch({ search: (request) => content.api.ai.search(request) });
  });

  get needsSite(): boolean {
    const pathname = this.#options.url().pathname;
    return !SITE_FREE_PATHS.some((prefix) => pathname.startsWith(prefix));
  }

  get sections(): NavSection[] {
    const { site, session, approvals } = this.#options.studio;
    const pendingCount = approvals?.total;
    return [
      {
        title: 'Content',
        items: site.can('schema:read')
          ? [
              { href: '/content', label: 'Collections', icon: 'collections' },
              { href: '/trash', label: 'Trash', icon: 'trash' },
            ]
          : [],
      },
      {
        title: 'Site',
        items: [
          ...(site.current
            ? [
                {
                  href: '/settings/ai-approvals',
                  label: 'Approvals',
                  icon: 'approvals' as const,
                  badge: pendingCount,
                  badgeLabel: pendingCount === 1 ? '1 pending approval' : `${pendingCount} pending approvals`,
                },
              ]
            : []),
          ...(site.can('users:write') ? [{ href: '/settings/members', label: 'Members', icon: 'members' as const }] : []),
          ...(site.current ? [{ href: '/settings/copilot-policy', label: 'Copilot policy', icon: 'shield' as const }] : []),
          ...(site.can('approvals:decide') ? [{ href: '/settings/ai-audit', label: 'Audit log', icon: 'clock' as const }] : []),
          ...(site.can('users:write') ? [{ href: '/settings/webhooks', label: 'Webhooks', icon: 'bell' as const }] : []),
        ],
      },
      {
        title: 'Administration',
        items: session.isSuperadmin
          ? [
              { href: '/admin/sites', label: 'Sites', icon: 'sites' },
              { href: '/admin/users', label: 'Users', icon: 'users' },
            ]
          : [],
      },
    ];
  }

  readonly chooseSite = (siteId: string): void => {
    this.#options.studio.site.choose(siteId);
    void this.#options.goto('/content');
  };

  readonly signOut = async (): Promise<void> => {
    await this.#options.studio.session.signOut();
    this.#options.studio.toasts.show({ tone: 'info', title: 'Signed out' });
  };
}

import type { Capability } from '@lumibase/shared';
import { describe, expect, it, vi } from 'vitest';
import type { SiteApi } from '../api/index.js';
import { ContentState } from './content.svelte.js';
import { StudioShell } from './studio-shell.svelte.js';
import { ToastState } from './toasts.svelte.js';

function shellFor({ capabilities = [] as Capability[], superadmin = false, pending = 3 as number | undefined, path = '/content' } = {}) {
  const site = {
    current: { id: 's1' },
    can: (...required: Capability[]) => required.every((c) => capabilities.includes(c)),
    choose: vi.fn(),
  };
  const session = { isSuperadmin: superadmin, signOut: vi.fn(async () => undefined) };
  const toasts = new ToastState();
  const content = new ContentState({ siteId: 's1', ai: { search: vi.fn() } } as unknown as SiteApi);
  const goto = vi.fn();
  const shell = new StudioShell({
    studio: { content, approvals: { total: pending }, toasts, session, site },
    url: () => new URL(path, 'http://studio.test'),
    goto,
  });
  return { shell, site, session, toasts, goto };
}

const links = (shell: StudioShell) => shell.sections.map((section) => section.items.map((item) => item.href));

describe('StudioShell', () => {
  it('lists only the pages this member may use, with the pending count on Approvals', () => {
    const reader = shellFor({ capabilities: ['content:read'] });
    expect(links(reader.shell)).toEqual([[], ['/settings/ai-approvals', '/settings/copilot-policy'], []]);
    expect(reader.shell.sections[1]?.items[0]).toMatchObject({ badge: 3, badgeLabel: '3 pending approvals' });

    const admin = shellFor({ capabilities: ['schema:read', 'users:write', 'approvals:decide'], superadmin: true, pending: 1 });
    expect(links(admin.shell)).toEqual([
      ['/content', '/trash'],
      ['/settings/ai-approvals', '/settings/members', '/settings/copilot-policy', '/settings/ai-audit', '/settings/webhooks'],
      ['/admin/sites', '/admin/users'],
    ]);
    expect(admin.shell.sections[1]?.items[0]?.badgeLabel).toBe('1 pending approval');
  });

  it('offers the site search only to members who may read content', () => {
    expect(shellFor({ capabilities: ['content:read'] }).shell.siteSearch).toBeDefined();
    expect(shellFor({ capabilities: ['schema:read'] }).shell.siteSearch).toBeUndefined();
  });

  it('asks for a site everywhere but the administration pages', () => {
    expect(shellFor({ path: '/settings/members' }).shell.needsSite).toBe(true);
    expect(shellFor({ path: '/admin/users' }).shell.needsSite).toBe(false);
  });

  it('opens the collections of a chosen site, and says so when signed out', async () => {
    const { shell, site, session, toasts, goto } = shellFor();
    shell.chooseSite('s2');
    expect(site.choose).toHaveBeenCalledWith('s2');
    expect(goto).toHaveBeenCalledWith('/content');
    await shell.signOut();
    expect(session.signOut).toHaveBeenCalledOnce();
    expect(toasts.list.map((toast) => toast.title)).toEqual(['Signed out']);
  });
});

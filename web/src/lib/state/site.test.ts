import type { SiteAccess } from '@lumibase/shared';
import { describe, expect, it, vi } from 'vitest';
import { createApi } from '../api/index.js';
import { SessionState } from './session.svelte.js';
import { type KeyValueStorage, SiteState } from './site.svelte.js';

const site = (id: string, extra: Partial<SiteAccess> = {}): SiteAccess => ({
  id,
  name: `Site ${id}`,
  role: 'admin',
  capabilities: ['schema:read'],
  ...extra,
});

function memoryStorage(): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

async function signedIn(sites: SiteAccess[], storage: KeyValueStorage, userId = 'u1', isSuperadmin = false) {
  const me = { data: { user: { id: userId, email: `${userId}@x.io`, name: userId, isSuperadmin }, sites } };
  const fetch = vi.fn().mockResolvedValue(new Response(JSON.stringify(me), { status: 200 }));
  const session = new SessionState(createApi({ fetch }));
  await session.restore();
  return { session, site: new SiteState(session, storage) };
}

describe('SiteState', () => {
  it('lands a user with one site in it, and asks a user with several to pick', async () => {
    expect((await signedIn([site('a')], memoryStorage())).site.current?.id).toBe('a');
    expect((await signedIn([site('a'), site('b')], memoryStorage())).site.current).toBeUndefined();
  });

  it('remembers the choice across a reload, per user', async () => {
    const storage = memoryStorage();
    const first = await signedIn([site('a'), site('b')], storage);
    first.site.choose('b');
    expect(first.site.current?.id).toBe('b');

    const afterReload = await signedIn([site('a'), site('b')], storage);
    expect(afterReload.site.current?.id).toBe('b');

    const otherUser = await signedIn([site('a'), site('b')], storage, 'u2');
    expect(otherUser.site.current).toBeUndefined();
  });

  it('ignores a remembered site the user no longer belongs to', async () => {
    const storage = memoryStorage();
    storage.setItem('lumibase.site.u1', 'gone');
    expect((await signedIn([site('a'), site('b')], storage)).site.current).toBeUndefined();
  });

  it('checks capabilities in the current site; * counts for superadmins only', async () => {
    const editor = await signedIn(
      [site('a', { role: 'editor', capabilities: ['schema:read', 'content:read', 'content:write'] })],
      memoryStorage(),
    );
    expect(editor.site.can('content:write')).toBe(true);
    expect(editor.site.can('schema:write')).toBe(false);

    const forged = await signedIn([site('a', { capabilities: ['*'] })], memoryStorage());
    expect(forged.site.can('users:write')).toBe(false);

    const superadmin = await signedIn([site('a', { role: 'superadmin', capabilities: ['*'] })], memoryStorage(), 'root', true);
    expect(superadmin.site.can('users:write', 'schema:write')).toBe(true);
  });
});

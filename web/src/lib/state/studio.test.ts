import { describe, expect, it, vi } from 'vitest';
import { fakeSocketFactory } from '../realtime/fake-socket.js';
import { Studio } from './studio.svelte.js';

const me = (siteNames: string[]) =>
  new Response(
    JSON.stringify({
      data: {
        user: { id: 'u1', email: 'ann@x.io', name: 'Ann', isSuperadmin: false },
        sites: siteNames.map((name) => ({ id: name, name, role: 'admin', capabilities: ['schema:read'] })),
      },
    }),
    { status: 200 },
  );

describe('Studio', () => {
  it("keeps the current site's content across a re-read of the site list, and replaces it on a site switch", async () => {
    const fetch = vi.fn().mockImplementation(async () => me(['a', 'b']));
    const studio = new Studio({ fetch, createSocket: fakeSocketFactory().createSocket });
    await studio.session.restore();
    studio.site.choose('a');
    const content = studio.content;
    expect(content?.siteId).toBe('a');
    await studio.session.refresh();
    expect(studio.content).toBe(content);
    studio.site.choose('b');
    expect(studio.content?.siteId).toBe('b');
  });

  it('routes content-changed events of the live socket to the current content', async () => {
    const fetch = vi
      .fn()
      .mockImplementation(async (url: string) =>
        url.endsWith('/collections') ? new Response(JSON.stringify({ data: [] }), { status: 200 }) : me(['a']),
      );
    const { createSocket, sockets } = fakeSocketFactory();
    const studio = new Studio({ fetch, createSocket });
    await studio.session.restore();
    studio.content?.ensureLoaded();
    await studio.live.connect('a');
    const handle = vi.spyOn(studio.content!, 'handle');
    sockets[0]!.serverEmit('content-changed', { seq: 1, siteId: 'a', kind: 'collection', action: 'created', collection: 'posts' });
    expect(handle).toHaveBeenCalledWith(expect.objectContaining({ kind: 'collection', collection: 'posts' }));
  });
});

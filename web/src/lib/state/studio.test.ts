import { describe, expect, it, vi } from 'vitest';
import { fakeSocketFactory } from '../realtime/fake-socket.js';
import { approvalFixture, pendingReply } from '../testing/fixtures.js';
import type { ApprovalAlerts } from './approval-alerts.js';
import { Studio } from './studio.svelte.js';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

const me = (siteNames: string[], capabilities: string[] = ['schema:read']) =>
  new Response(
    JSON.stringify({
      data: {
        user: { id: 'u1', email: 'ann@x.io', name: 'Ann', isSuperadmin: false },
        sites: siteNames.map((name) => ({ id: name, name, role: 'admin', capabilities })),
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

  describe('approvals', () => {
    // deleteCollection (the fixtures' skill) needs schema:write besides approvals:decide: the decider rule.
    function signedInStudio({ capabilities = ['approvals:decide', 'schema:write'] } = {}) {
      const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input);
        if (url.startsWith('/api/v1/ai/approvals')) return json({ data: [approvalFixture({ siteId: 'a' })], meta: { total: 3, seq: 20 } });
        if (url === '/api/v1/ai/chat') return json({ data: pendingReply('ap-9') });
        if (url === '/api/v1/auth/me') return me(['a'], capabilities);
        throw new Error(`unexpected ${init?.method ?? 'GET'} ${url}`);
      });
      const { createSocket, sockets } = fakeSocketFactory();
      const notifications: ApprovalAlerts = { permission: () => 'granted', request: async () => 'granted', show: vi.fn() };
      return { studio: new Studio({ fetch, createSocket, notifications }), sockets, notifications, fetch };
    }
    const created = (seq: number, requestedBy = { id: 'u2', name: 'Bob' }) => ({
      seq,
      siteId: 'a',
      approval: approvalFixture({ id: `ap-${seq}`, siteId: 'a', requestedBy }),
    });

    it("connects the socket at the seq of the pending list's read, and counts from its total", async () => {
      const { studio, sockets } = signedInStudio();
      await studio.session.restore();
      await studio.live.connect('a');
      expect(sockets[0]!.handshakes).toEqual([{ siteId: 'a', lastSeq: 20 }]);
      expect(studio.approvals?.total).toBe(3);
      sockets[0]!.serverEmit('approval-created', created(21));
      expect(studio.approvals?.total).toBe(4);
    });

    it('tells approvers about requests from others with a toast linking to the card and a desktop notification', async () => {
      const { studio, sockets, notifications } = signedInStudio();
      await studio.session.restore();
      await studio.live.connect('a');
      sockets[0]!.serverEmit('approval-created', created(21));
      expect(studio.toasts.list).toEqual([
        expect.objectContaining({
          title: expect.stringMatching(/^Bob asks for approval: (Deletes the collection|Delete a collection)/),
          link: { href: '/settings/ai-approvals#approval-ap-21', label: 'Review request' },
        }),
      ]);
      expect(notifications.show).toHaveBeenCalledWith(
        expect.objectContaining({ tag: 'ap-21', href: '/settings/ai-approvals#approval-ap-21' }),
      );
      // Not for one's own request, and not for members who cannot decide.
      sockets[0]!.serverEmit('approval-created', created(22, { id: 'u1', name: 'Ann' }));
      expect(studio.toasts.list).toHaveLength(1);
    });

    it('does not alert members without approvals:decide', async () => {
      const { studio, sockets, notifications } = signedInStudio({ capabilities: ['schema:read'] });
      await studio.session.restore();
      await studio.live.connect('a');
      sockets[0]!.serverEmit('approval-created', created(21));
      expect(studio.toasts.list).toEqual([]);
      expect(notifications.show).not.toHaveBeenCalled();
      expect(studio.approvals?.total).toBe(4);
    });

    it("does not alert holders of approvals:decide who lack the skill's capabilities", async () => {
      const { studio, sockets, notifications } = signedInStudio({ capabilities: ['approvals:decide'] });
      await studio.session.restore();
      await studio.live.connect('a');
      sockets[0]!.serverEmit('approval-created', created(21));
      expect(studio.toasts.list).toEqual([]);
      expect(notifications.show).not.toHaveBeenCalled();
    });

    it("follows the approvals the Copilot's replies created", async () => {
      const { studio, sockets } = signedInStudio();
      await studio.session.restore();
      await studio.live.connect('a');
      await studio.copilot?.send('delete collection posts');
      const decided = approvalFixture({ id: 'ap-9', siteId: 'a', status: 'rejected', decidedBy: { id: 'u2', name: 'Bob' } });
      sockets[0]!.serverEmit('approval-decided', { seq: 21, siteId: 'a', approval: decided });
      expect(studio.approvals?.approval('ap-9')?.status).toBe('rejected');
    });
  });
});

describe('Studio copilot-progress', () => {
  it("routes the socket's copilot-progress events to the Copilot turn in flight", async () => {
    let answer!: (response: Response) => void;
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url === '/api/v1/ai/chat') return new Promise<Response>((resolve) => (answer = resolve));
      if (url.startsWith('/api/v1/ai/approvals')) return json({ data: [], meta: { total: 0, seq: 0 } });
      return me(['a']);
    });
    const { createSocket, sockets } = fakeSocketFactory();
    const studio = new Studio({ fetch, createSocket });
    await studio.session.restore();
    await studio.live.connect('a');
    const copilot = studio.copilot!;
    const sent = copilot.send('list posts');
    sockets[0]!.serverEmit('copilot-progress', { conversationId: 'c1', step: 1, kind: 'tool-call', skill: 'listItems' });
    sockets[0]!.serverEmit('copilot-progress', { conversationId: 'c1', step: 1, kind: 'tool-call' });
    expect(copilot.progress).toEqual([{ step: 1, kind: 'tool', skill: 'listItems', status: undefined }]);
    await vi.waitFor(() => expect(answer).toBeDefined());
    answer(json({ data: { status: 'executed', message: 'ok', conversationId: 'c1', results: [], reply: 'ok' } }));
    await sent;
    expect(copilot.progress).toEqual([]);
  });
});

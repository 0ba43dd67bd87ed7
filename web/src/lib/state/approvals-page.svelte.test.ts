import { type ApprovalJson, type ApprovalStatus, isPending } from '@lumibase/shared';
import { flushSync } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SiteApi } from '../api/index.js';
import { fakeSocketFactory } from '../realtime/fake-socket.js';
import { approvalFixture } from '../testing/fixtures.js';
import { ApprovalsPage } from './approvals-page.svelte.js';
import { ApprovalsState } from './approvals.svelte.js';
import { LiveState } from './live.svelte.js';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

let stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops) stop();
  stops = [];
});

interface Setup {
  address?: string;
  selfApproval?: boolean;
  missing?: string[];
  userId?: string;
  /** Settled reads wait for it. */
  gate?: Promise<unknown>;
}

/** The dashboard on `address`, inside an effect root (as the page holds it), over a fake site API and a live socket. */
async function open({ address = '/settings/ai-approvals', selfApproval = true, missing = [], userId = 'u-me', gate }: Setup = {}) {
  const byStatus = new Map<ApprovalStatus, ApprovalJson[]>([['approved', [approvalFixture({ id: 'done-1', status: 'approved' })]]]);
  const list = vi.fn(async ({ status = 'pending' }: { status?: ApprovalStatus } = {}) => {
    if (!isPending(status)) await gate;
    const data = byStatus.get(status) ?? [];
    return { data, meta: { total: data.length, seq: 0 } };
  });
  const api = { siteId: 's1', ai: { approvals: { list }, policy: { get: vi.fn(async () => ({ selfApproval })) } } } as unknown as SiteApi;
  const approvals = new ApprovalsState({ api, userId: () => userId });
  const { createSocket, sockets } = fakeSocketFactory();
  const live = new LiveState({ createSocket });
  await live.connect('s1', 0);
  const notifications = { permission: () => 'default' as const, request: vi.fn(async () => 'granted' as const) };
  let url = $state(new URL(address, 'http://studio.test'));
  const goto = vi.fn((next: URL | string) => {
    url = new URL(next, 'http://studio.test');
  });
  let here!: ApprovalsPage;
  stops.push(
    $effect.root(() => {
      here = new ApprovalsPage({
        studio: {
          approvals,
          live,
          notifications,
          session: { user: { id: userId } },
          site: { current: { id: 's1' }, can: () => true, missingToDecide: () => missing },
        },
        url: () => url,
        goto,
      });
    }),
  );
  flushSync();
  return { here, list, byStatus, socket: sockets[0]!, url: () => url, notifications };
}

describe('ApprovalsPage', () => {
  it('reads a settled tab when it is shown: loading, then loaded', async () => {
    let answer!: () => void;
    const gate = new Promise<void>((resolve) => (answer = resolve));
    const { here, list } = await open({ address: '/settings/ai-approvals?status=approved', gate });
    expect(here.tab).toBe('approved');
    await flush();
    expect(here.decided?.status).toBe('loading');
    answer();
    await flush();
    expect(here.decided?.value?.data.map(({ id }) => id)).toEqual(['done-1']);
    expect(list).toHaveBeenCalledWith({ status: 'approved' });
  });

  it('reads the tab again when an approval changes state, and on a resync', async () => {
    const { here, byStatus, socket } = await open({ address: '/settings/ai-approvals?status=approved' });
    await flush();
    const second = approvalFixture({ id: 'done-2', status: 'approved' });
    byStatus.set('approved', [second, ...(byStatus.get('approved') ?? [])]);
    socket.serverEmit('approval-decided', { seq: 1, siteId: 's1', approval: second });
    await flush();
    expect(here.decided?.value?.data.map(({ id }) => id)).toEqual(['done-2', 'done-1']);

    byStatus.set('approved', []);
    socket.serverEmit('resync-required', { siteId: 's1', seq: 9 });
    await flush();
    expect(here.decided?.value?.data).toEqual([]);
  });

  it('switches tabs through the URL, dropping a card link', async () => {
    const { here, url } = await open({ address: '/settings/ai-approvals#approval-a' });
    expect(here.tab).toBe('pending');
    expect(here.decided).toBeUndefined();
    here.showTab('rejected');
    expect(url().search).toBe('?status=rejected');
    expect(url().hash).toBe('');
    expect(here.tab).toBe('rejected');
    here.showTab('pending');
    expect(url().search).toBe('');
  });

  it("keeps a requester from approving their own request when the site's policy says so", async () => {
    const mine = approvalFixture({ requestedBy: { id: 'u-me', name: 'Me' } });
    const theirs = approvalFixture({ id: 'ap-2' });
    const strict = await open({ selfApproval: false });
    await flush();
    expect(strict.here.cannotApprove(mine)).toMatch(/someone other than the requester/);
    expect(strict.here.cannotApprove(theirs)).toBeUndefined();
    expect(strict.here.mine(mine)).toBe(true);
    const relaxed = await open({ selfApproval: true });
    await flush();
    expect(relaxed.here.cannotApprove(mine)).toBeUndefined();
  });

  it('says what a viewer lacks to decide', async () => {
    const { here } = await open({ missing: ['schema:write'] });
    expect(here.cannotDecide(approvalFixture())).toBe('Deciding on this also needs someone who can change the schema.');
    const none = await open({ missing: ['approvals:decide', 'schema:write'] });
    expect(none.here.cannotDecide(approvalFixture())).toBe('Deciding needs someone who can decide approvals in this site.');
    const all = await open({ missing: [] });
    expect(all.here.cannotDecide(approvalFixture())).toBeUndefined();
  });

  it('turns desktop notifications on from a click', async () => {
    const { here, notifications } = await open();
    expect(here.permission).toBe('default');
    await here.enableNotifications();
    expect(notifications.request).toHaveBeenCalledTimes(1);
    expect(here.permission).toBe('granted');
  });
});

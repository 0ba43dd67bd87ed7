import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestToasts } from './request-toasts.js';
import { ToastState } from './toasts.svelte.js';

const alert = (id: string) => ({
  approvalId: id,
  title: `Bob asked (${id})`,
  message: `message ${id}`,
  href: `/settings/ai-approvals#approval-${id}`,
});

describe('RequestToasts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows one toast for one request, and collapses several into one that links to the Approvals page', () => {
    const toasts = new ToastState();
    const requests = new RequestToasts(toasts, 10_000);
    requests.announce(alert('a'));
    expect(toasts.list).toEqual([
      expect.objectContaining({ title: 'Bob asked (a)', link: { href: '/settings/ai-approvals#approval-a', label: 'Review request' } }),
    ]);
    requests.announce(alert('b'));
    requests.announce(alert('c'));
    expect(toasts.list).toEqual([
      expect.objectContaining({
        title: '3 requests wait for a decision',
        message: 'Newest: Bob asked (c)',
        link: { href: '/settings/ai-approvals', label: 'Review requests' },
      }),
    ]);
    // Decided elsewhere: it leaves the toast; the last one decided takes the toast down.
    requests.settle('c');
    expect(toasts.list.map((toast) => toast.title)).toEqual(['2 requests wait for a decision']);
    requests.settle('a');
    expect(toasts.list.map((toast) => toast.title)).toEqual(['Bob asked (b)']);
    requests.settle('b');
    expect(toasts.list).toEqual([]);
  });

  it('stays quiet while the Approvals page is open, and takes down the toast showing when it opens', () => {
    const toasts = new ToastState();
    const requests = new RequestToasts(toasts, 10_000);
    requests.announce(alert('a'));
    requests.quiet = true;
    expect(toasts.list).toEqual([]);
    requests.announce(alert('b'));
    expect(toasts.list).toEqual([]);
    requests.quiet = false;
    requests.announce(alert('c'));
    expect(toasts.list.map((toast) => toast.title)).toEqual(['Bob asked (c)']);
  });

  it('goes after its time, and a request after a dismissed toast starts a new one', () => {
    const toasts = new ToastState();
    const requests = new RequestToasts(toasts, 10_000);
    requests.announce(alert('a'));
    vi.advanceTimersByTime(10_000);
    expect(toasts.list).toEqual([]);
    requests.announce(alert('b'));
    toasts.dismiss(toasts.list[0]!.id);
    requests.announce(alert('c'));
    expect(toasts.list.map((toast) => toast.title)).toEqual(['Bob asked (c)']);
  });
});

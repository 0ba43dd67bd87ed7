import { describe, expect, it } from 'vitest';
import { fakeSocketFactory } from '../realtime/fake-socket.js';
import { LiveState } from './live.svelte.js';
import { liveResource, reloading } from './live-resource.svelte.js';
import { Resource } from './resource.svelte.js';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const change = (seq: number) => ({ seq, siteId: 's1', kind: 'item', action: 'created', collection: 'posts' });

async function connected() {
  const { createSocket, sockets } = fakeSocketFactory();
  const live = new LiveState({ createSocket });
  await live.connect('s1', 0);
  const socket = sockets[0]!;
  socket.serverEmit('connect');
  return { live, socket };
}

/** A resource whose reads return how many reads there have been, so a test sees each reload land. */
function counting() {
  let reads = 0;
  return new Resource(async () => ++reads);
}

describe('liveResource', () => {
  it('loads at once: loading, then the value', async () => {
    const { live } = await connected();
    const resource = counting();
    liveResource(live, reloading(resource));
    expect(resource.status).toBe('loading');
    await flush();
    expect(resource.status).toBe('ready');
    expect(resource.value).toBe(1);
  });

  it('reloads quietly on a resync, keeping the value on screen meanwhile', async () => {
    const { live, socket } = await connected();
    const resource = counting();
    liveResource(live, reloading(resource));
    await flush();
    socket.serverEmit('resync-required', { siteId: 's1', seq: 9 });
    expect(resource.status).toBe('ready');
    expect(resource.refreshing).toBe(true);
    await flush();
    expect(resource.value).toBe(2);
    expect(resource.refreshing).toBe(false);
  });

  it('reloads on the events it names, and on no others', async () => {
    const { live, socket } = await connected();
    const items = counting();
    const approvals = counting();
    liveResource(live, reloading(items, ['content-changed']));
    liveResource(live, reloading(approvals, ['approval-decided']));
    await flush();
    socket.serverEmit('content-changed', change(1));
    await flush();
    expect(items.value).toBe(2);
    expect(approvals.value).toBe(1);
  });

  it('hands each event to its handler, and stops listening once stopped', async () => {
    const { live, socket } = await connected();
    const seen: number[] = [];
    let resyncs = 0;
    const stop = liveResource(live, {
      load: () => undefined,
      resync: () => resyncs++,
      on: { 'content-changed': (event) => seen.push(event.seq) },
    });
    socket.serverEmit('content-changed', change(1));
    socket.serverEmit('resync-required', { siteId: 's1', seq: 5 });
    stop();
    socket.serverEmit('content-changed', change(6));
    socket.serverEmit('resync-required', { siteId: 's1', seq: 9 });
    expect(seen).toEqual([1]);
    expect(resyncs).toBe(1);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { approvalFixture } from '../testing/fixtures.js';
import type { SequencedEvent } from './events.js';
import { fakeSocketFactory } from './fake-socket.js';
import { type ConnectionStatus, RealtimeClient } from './realtime-client.js';

const SITE = 'site-a';
const content = (seq: number, extra: Record<string, unknown> = {}) => ({
  seq,
  siteId: SITE,
  kind: 'item',
  action: 'created',
  collection: 'posts',
  id: `item-${seq}`,
  ...extra,
});
const approval = approvalFixture({ id: 'ap1', siteId: SITE });

function startClient(lastSeq?: number) {
  const { createSocket, sockets } = fakeSocketFactory();
  const events: SequencedEvent[] = [];
  const resyncs: (number | undefined)[] = [];
  const statuses: ConnectionStatus[] = [];
  const onUnauthenticated = vi.fn();
  const client = new RealtimeClient({
    siteId: SITE,
    lastSeq,
    createSocket,
    gapTimeoutMs: 1000,
    onEvent: (event) => events.push(event),
    onResync: (seq) => resyncs.push(seq),
    onStatus: (status) => statuses.push(status),
    onUnauthenticated,
  });
  client.start();
  const socket = sockets[0]!;
  return { client, socket, sockets, events, resyncs, statuses, onUnauthenticated };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('RealtimeClient', () => {
  it('opens one socket for its site, with lastSeq in the handshake when it has one', () => {
    const { socket, sockets } = startClient(7);
    expect(sockets).toHaveLength(1);
    expect(socket.handshakes).toEqual([{ siteId: SITE, lastSeq: 7 }]);
    expect(startClient().socket.handshakes).toEqual([{ siteId: SITE }]);
  });

  it('dispatches every event type, parsed, in seq order', () => {
    const { socket, events } = startClient(0);
    socket.serverEmit('approval-decided', { seq: 3, siteId: SITE, approval: { ...approval, status: 'rejected' } });
    socket.serverEmit('content-changed', content(1));
    socket.serverEmit('approval-created', { seq: 2, siteId: SITE, approval });
    expect(events.map((event) => [event.seq, event.type])).toEqual([
      [1, 'content-changed'],
      [2, 'approval-created'],
      [3, 'approval-decided'],
    ]);
    expect(events[0]!.payload).toMatchObject({ kind: 'item', action: 'created', collection: 'posts', id: 'item-1' });
  });

  it('drops duplicates, such as an event seen live and again in a replay', () => {
    const { socket, events } = startClient(0);
    socket.serverEmit('content-changed', content(1));
    socket.serverEmit('content-changed', content(2));
    socket.serverEmit('content-changed', content(1));
    socket.serverEmit('content-changed', content(2));
    expect(events.map((event) => event.seq)).toEqual([1, 2]);
  });

  it('sends the last applied seq when it reconnects, so the server replays what was missed', () => {
    const { socket, events } = startClient(0);
    socket.serverEmit('connect');
    socket.serverEmit('content-changed', content(1));
    socket.serverEmit('content-changed', content(2));
    socket.serverEmit('disconnect', 'transport close');
    socket.connect(); // socket.io's own reconnection calls the auth function again
    expect(socket.handshakes.at(-1)).toEqual({ siteId: SITE, lastSeq: 2 });
    socket.serverEmit('content-changed', content(3));
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3]);
  });

  it('on resync-required asks for a refetch and continues from the given seq', () => {
    const { socket, events, resyncs } = startClient(3);
    socket.serverEmit('resync-required', { siteId: SITE, seq: 40 });
    expect(resyncs).toEqual([40]);
    socket.serverEmit('content-changed', content(12));
    socket.serverEmit('content-changed', content(41));
    expect(events.map((event) => event.seq)).toEqual([41]);
    expect(socket.handshakes).toHaveLength(1);
  });

  it('asks for a refetch on its first connect, and on reconnects only when it has no seq to replay from', () => {
    const fresh = startClient();
    fresh.socket.serverEmit('connect');
    fresh.socket.serverEmit('connect');
    expect(fresh.resyncs).toEqual([undefined, undefined]);
    const resuming = startClient(5);
    resuming.socket.serverEmit('connect');
    resuming.socket.serverEmit('disconnect', 'transport close');
    resuming.socket.serverEmit('connect');
    expect(resuming.resyncs).toEqual([undefined]);
  });

  it('reconnects with lastSeq when a gap is not filled in time', () => {
    vi.useFakeTimers();
    const { socket, events } = startClient(0);
    socket.serverEmit('content-changed', content(1));
    socket.serverEmit('content-changed', content(3));
    vi.advanceTimersByTime(1000);
    expect(socket.disconnects).toBe(1);
    expect(socket.handshakes.at(-1)).toEqual({ siteId: SITE, lastSeq: 1 });
    socket.serverEmit('content-changed', content(2));
    socket.serverEmit('content-changed', content(3));
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3]);
  });

  it("ignores another site's events and keeps a malformed payload's place in the sequence", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { socket, events } = startClient(0);
    socket.serverEmit('content-changed', { ...content(1), siteId: 'site-b' });
    socket.serverEmit('content-changed', { ...content(1), kind: 'planet' });
    socket.serverEmit('content-changed', content(2));
    expect(events.map((event) => event.seq)).toEqual([2]);
    expect(warn).toHaveBeenCalledOnce();
  });

  it('reports its connection status, and an UNAUTHENTICATED handshake as an ended session', () => {
    const { socket, statuses, onUnauthenticated } = startClient();
    socket.serverEmit('connect');
    socket.serverEmit('disconnect', 'transport close');
    socket.serverEmit('connect_error', new Error('xhr poll error'));
    socket.serverEmit('connect_error', new Error('FORBIDDEN'));
    expect(onUnauthenticated).not.toHaveBeenCalled();
    socket.serverEmit('connect_error', new Error('UNAUTHENTICATED'));
    expect(statuses).toEqual(['connecting', 'live', 'reconnecting', 'reconnecting', 'denied', 'denied']);
    expect(onUnauthenticated).toHaveBeenCalledOnce();
  });

  it('after the server drops it, retries once to learn why', () => {
    vi.useFakeTimers();
    const { socket, statuses } = startClient(2);
    socket.serverEmit('connect');
    socket.serverEmit('disconnect', 'io server disconnect');
    expect(statuses.at(-1)).toBe('offline');
    vi.advanceTimersByTime(2000);
    expect(socket.connects).toBe(2);
    expect(socket.handshakes.at(-1)).toEqual({ siteId: SITE, lastSeq: 2 });
  });

  it('close disconnects and stops delivering', () => {
    const { client, socket, events, statuses } = startClient(0);
    client.close();
    expect(socket.disconnects).toBe(1);
    expect(statuses.at(-1)).toBe('idle');
    socket.serverEmit('disconnect', 'io client disconnect');
    expect(statuses.at(-1)).toBe('idle');
    expect(events).toEqual([]);
  });
});

describe('RealtimeClient copilot-progress', () => {
  it('hands on each copilot-progress event parsed with the shared schema, outside the seq order, and drops malformed ones', () => {
    const { createSocket, sockets } = fakeSocketFactory();
    const progress: unknown[] = [];
    const events: SequencedEvent[] = [];
    const client = new RealtimeClient({
      siteId: SITE,
      lastSeq: 3,
      createSocket,
      onEvent: (event) => events.push(event),
      onResync: () => {},
      onStatus: () => {},
      onCopilotProgress: (event) => progress.push(event),
    });
    client.start();
    const socket = sockets[0]!;
    const call = { conversationId: 'c1', step: 1, kind: 'tool-call', skill: 'listItems' };
    socket.serverEmit('copilot-progress', call);
    socket.serverEmit('copilot-progress', { conversationId: 'c1', step: 0, kind: 'text', text: 'x' });
    socket.serverEmit('copilot-progress', { conversationId: 'c1', step: 1, kind: 'shout' });
    socket.serverEmit('copilot-progress', { conversationId: 'c1', step: 1, kind: 'tool-result', skill: 'listItems', status: 'executed' });
    expect(progress).toEqual([call, { conversationId: 'c1', step: 1, kind: 'tool-result', skill: 'listItems', status: 'executed' }]);
    expect(events).toEqual([]);
    expect(client.lastSeq).toBe(3);
    client.close();
  });
});

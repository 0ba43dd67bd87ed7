import { describe, expect, it } from 'vitest';
import { fakeSocketFactory } from '../realtime/fake-socket.js';
import { LiveState } from './live.svelte.js';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('LiveState', () => {
  it("starts the socket from the site's current seq, so the first events replay gap-free", async () => {
    const { createSocket, sockets } = fakeSocketFactory();
    const live = new LiveState({ createSocket, currentSeq: async () => 41 });
    await live.connect('s1');
    expect(sockets[0]!.handshakes).toEqual([{ siteId: 's1', lastSeq: 41 }]);
  });

  it('falls back to live events when the seq cannot be read', async () => {
    const { createSocket, sockets } = fakeSocketFactory();
    const live = new LiveState({ createSocket, currentSeq: () => Promise.reject(new Error('404')) });
    await live.connect('s1');
    expect(sockets[0]!.handshakes).toEqual([{ siteId: 's1' }]);
  });

  it('keeps one socket per tab: a site switch closes the old one; listeners carry over', async () => {
    const { createSocket, sockets } = fakeSocketFactory();
    const live = new LiveState({ createSocket });
    const seen: string[] = [];
    live.on('content-changed', (event) => seen.push(`${event.siteId}:${event.seq}`));
    await live.connect('s1');
    await live.connect('s1');
    expect(sockets).toHaveLength(1);
    await live.connect('s2');
    expect(sockets).toHaveLength(2);
    expect(sockets[0]!.disconnects).toBe(1);
    const change = { kind: 'item', action: 'created', collection: 'posts' };
    sockets[1]!.serverEmit('content-changed', { seq: 1, siteId: 's2', ...change });
    expect(seen).toEqual(['s2:1']);
    expect(live.lastSeq).toBe(1);
  });

  it('does not open a socket for a site left while its seq was being read', async () => {
    const { createSocket, sockets } = fakeSocketFactory();
    let answer!: (seq: number) => void;
    const live = new LiveState({ createSocket, currentSeq: () => new Promise<number>((resolve) => (answer = resolve)) });
    const pending = live.connect('s1');
    live.disconnect();
    answer(3);
    await pending;
    await flush();
    expect(sockets).toHaveLength(0);
    expect(live.status).toBe('idle');
  });
});

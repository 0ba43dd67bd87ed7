// A socket whose access a test is about to end: when it was disconnected (by the server), and what it got before.
import { expect } from 'vitest';
import { connected, type RecordedEvent, type SocketPool, type TestSocket } from './socket-client.js';

/** The contract's bound: access ends → the person's sockets on every server are disconnected within 2 s. */
export const REVOKED_WITHIN_MS = 2_000;

export interface WatchedSocket extends TestSocket {
  /** Resolves with Date.now() when the server disconnected it (never resolves otherwise). */
  serverDisconnected: Promise<number>;
}

export async function watchSite(pool: SocketPool, url: string, token: string, siteId: string): Promise<WatchedSocket> {
  const socket = pool.connect(url, { token, siteId });
  const serverDisconnected = new Promise<number>((resolve) => {
    socket.socket.on('disconnect', (reason) => {
      if (reason === 'io server disconnect') resolve(Date.now());
    });
  });
  await connected(socket);
  return Object.assign(socket, { serverDisconnected });
}

/**
 * The socket was disconnected by the server no later than REVOKED_WITHIN_MS after `changedAt` (when the test saw the
 * change made: its response, or its event at another socket). Waits at most that long past `changedAt`.
 */
export async function expectDisconnectedWithin(socket: WatchedSocket, changedAt: number, what: string): Promise<void> {
  const deadline = changedAt + REVOKED_WITHIN_MS;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()));
  });
  const at = await Promise.race([socket.serverDisconnected, late]);
  clearTimeout(timer);
  expect(at, `${what}: still connected ${REVOKED_WITHIN_MS} ms after the change`).toBeDefined();
  expect(at! - changedAt, `${what}: disconnected too late`).toBeLessThanOrEqual(REVOKED_WITHIN_MS);
}

/**
 * Once disconnected a socket gets nothing more, so after `expectDisconnectedWithin` this holds for good: none of the
 * events it recorded is at or after `fromSeq` (the first seq written after the change) or matches `after`.
 */
export function expectNoEventAfter(socket: WatchedSocket, fromSeq: number, after: (event: RecordedEvent) => boolean = () => false): void {
  const late = socket.events.filter((event) => event.payload.seq >= fromSeq || after(event));
  expect(late.map((event) => [event.name, event.payload.seq])).toEqual([]);
}

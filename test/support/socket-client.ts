// A Studio-like socket for cross-process tests: connects to a site, records every event in arrival order.
import type { ServerToClientEvents } from '@lumibase/shared';
import { io, type Socket } from 'socket.io-client';

export interface RecordedEvent {
  name: string;
  // biome-ignore lint/suspicious/noExplicitAny: events are asserted by shape in the tests.
  payload: any;
}

export interface TestSocket {
  socket: Socket<ServerToClientEvents>;
  events: RecordedEvent[];
  /** Resolves with the first recorded event (from the start) for which `match` is true. */
  waitFor(match: (event: RecordedEvent) => boolean, timeoutMs?: number): Promise<RecordedEvent>;
  close(): void;
}

const EVENT_NAMES = ['approval-created', 'approval-decided', 'content-changed', 'resync-required'] as const;

/** `headers` go on the handshake request, as a browser's Cookie and Origin would. */
export function connectSocket(
  baseUrl: string,
  auth: { token?: string; siteId?: string; lastSeq?: number },
  headers: Record<string, string> = {},
): TestSocket {
  const socket: Socket<ServerToClientEvents> = io(baseUrl, {
    path: '/socket.io',
    auth,
    extraHeaders: headers,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  const events: RecordedEvent[] = [];
  const waiters = new Set<() => void>();
  for (const name of EVENT_NAMES) {
    socket.on(name, ((payload: unknown) => {
      events.push({ name, payload });
      for (const waiter of waiters) waiter();
    }) as never);
  }
  return {
    socket,
    events,
    waitFor(match, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no matching event within ${timeoutMs} ms; got ${JSON.stringify(events.map((event) => [event.name, event.payload.seq]))}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => socket.close(),
  };
}

/** The sockets a test file opens, so that one `afterAll` closes every one of them. */
export class SocketPool {
  private readonly open: TestSocket[] = [];

  connect(baseUrl: string, auth: { token?: string; siteId?: string; lastSeq?: number }, headers: Record<string, string> = {}): TestSocket {
    const socket = connectSocket(baseUrl, auth, headers);
    this.open.push(socket);
    return socket;
  }

  closeAll(): void {
    for (const socket of this.open.splice(0)) socket.close();
  }
}

/** Resolves when connected; rejects with the server's connect_error message (UNAUTHENTICATED, FORBIDDEN). */
export function connected(test: TestSocket, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('socket did not connect')), timeoutMs);
    test.socket.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
    test.socket.once('connect_error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

// A stand-in for a socket.io client socket in tests: records handshakes, lets a test play the server.
import type { Handshake, SocketFactory, SocketLike } from './realtime-client.js';

export class FakeSocket implements SocketLike {
  readonly handshakes: Handshake[] = [];
  connects = 0;
  disconnects = 0;
  readonly #handlers = new Map<string, ((...args: never[]) => void)[]>();
  readonly #auth: (reply: (handshake: Handshake) => void) => void;

  constructor(auth: (reply: (handshake: Handshake) => void) => void) {
    this.#auth = auth;
  }

  on(event: string, listener: (...args: never[]) => void): this {
    this.#handlers.set(event, [...(this.#handlers.get(event) ?? []), listener]);
    return this;
  }

  connect(): this {
    this.connects += 1;
    this.#auth((handshake) => this.handshakes.push(handshake));
    return this;
  }

  disconnect(): this {
    this.disconnects += 1;
    return this;
  }

  /** Plays the server: delivers `event` to the client's listeners. */
  serverEmit(event: string, ...args: unknown[]): void {
    for (const handler of this.#handlers.get(event) ?? []) (handler as (...values: unknown[]) => void)(...args);
  }
}

/** A SocketFactory whose sockets a test can reach. */
export function fakeSocketFactory(): { createSocket: SocketFactory; sockets: FakeSocket[] } {
  const sockets: FakeSocket[] = [];
  return {
    sockets,
    createSocket: ({ auth }) => {
      const socket = new FakeSocket(auth);
      sockets.push(socket);
      return socket;
    },
  };
}

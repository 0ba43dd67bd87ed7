// A TCP proxy in front of a MongoDB that can lose the reply to one command and then refuse connections for a
// while: what a client sees when MongoDB dies right after it stored a write (the outcome of the write unknown).
import { createServer, type Server, type Socket, connect } from 'node:net';
import { BSON } from 'mongodb';

const OP_MSG = 2013;

/** The command document (section kind 0) of an OP_MSG, undefined for anything else. */
function commandOf(message: Buffer): BSON.Document | undefined {
  if (message.readInt32LE(12) !== OP_MSG || message[20] !== 0) return undefined;
  const length = message.readInt32LE(21);
  return BSON.deserialize(message.subarray(21, 21 + length));
}

/** Calls `onMessage` with each complete wire message as it arrives, in order. */
function messages(onMessage: (message: Buffer) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
      const length = pending.readInt32LE(0);
      onMessage(pending.subarray(0, length));
      pending = pending.subarray(length);
    }
  };
}

export class WireProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private refusing = false;
  private trap: { matches: (command: BSON.Document) => boolean; sprung: () => void } | undefined;
  port = 0;

  constructor(private readonly target: () => { host: string; port: number }) {}

  async start(): Promise<void> {
    this.server = createServer((client) => this.connectClient(client));
    await new Promise<void>((listening) => this.server!.listen(0, '127.0.0.1', listening));
    this.port = (this.server.address() as { port: number }).port;
  }

  /**
   * The next command `matches` accepts reaches MongoDB, but its reply never reaches the client: every connection
   * is cut the moment the reply comes back, and new ones are refused until `resume()`. Resolves then.
   */
  loseReplyTo(matches: (command: BSON.Document) => boolean): Promise<void> {
    return new Promise((sprung) => {
      this.trap = { matches, sprung };
    });
  }

  /** Lets connections through again. */
  resume(): void {
    this.refusing = false;
  }

  private connectClient(client: Socket): void {
    if (this.refusing) {
      client.destroy();
      return;
    }
    const upstream = connect(this.target());
    this.sockets.add(client).add(upstream);
    const trapped = new Set<number>();
    client.on(
      'data',
      messages((message) => {
        const command = this.trap ? commandOf(message) : undefined;
        if (command && this.trap?.matches(command)) trapped.add(message.readInt32LE(4));
        upstream.write(message);
      }),
    );
    upstream.on(
      'data',
      messages((message) => {
        if (!trapped.has(message.readInt32LE(8))) {
          client.write(message);
          return;
        }
        // The command ran; its reply is lost with every connection, as when the server dies right after.
        const trap = this.trap!;
        this.trap = undefined;
        this.refusing = true;
        for (const socket of this.sockets) socket.destroy();
        this.sockets.clear();
        trap.sprung();
      }),
    );
    const close = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((closed) => this.server?.close(closed));
  }
}

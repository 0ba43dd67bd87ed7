// One client socket: frames the byte stream, runs its requests strictly in order, writes replies.
import type { Socket } from 'node:net';
import type { Document } from 'bson';
import type { Logger } from 'pino';
import { FrameReader } from './frame-reader.js';
import { decodeRequest, encodeReply, MalformedMessageError, type WireRequest } from './wire-message.js';

export interface ConnectionHandler {
  /** Runs one command; the reply, or a promise of it when writes must first become durable. */
  execute(request: WireRequest, connectionId: number): Document | Promise<Document>;
  /**
   * Observes server-side time per command: `processing` from whole frame to encoded reply (what
   * mongod's own latency counters cover), `writing` the socket write syscall after it.
   */
  observe(commandName: string, processing: bigint, writing: bigint): void;
}

export class ClientConnection {
  private readonly reader: FrameReader;
  private readonly queue: Buffer[] = [];
  private running = false;
  private closed = false;

  constructor(
    private readonly socket: Socket,
    readonly id: number,
    private readonly handler: ConnectionHandler,
    private readonly logger: Logger,
    maxMessageSizeBytes: number,
  ) {
    this.reader = new FrameReader(maxMessageSizeBytes);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error) => this.logger.debug({ connectionId: id, err: error }, 'socket error'));
    socket.on('close', () => {
      this.closed = true;
    });
  }

  close(): void {
    this.closed = true;
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    try {
      this.queue.push(...this.reader.push(chunk));
    } catch (error) {
      this.reject(error as Error);
      return;
    }
    if (!this.running) void this.drain();
  }

  // Never rejects: an escaped error here would be an unhandled rejection, which ends the process.
  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length && !this.closed) {
        const frame = this.queue.shift() as Buffer;
        const started = process.hrtime.bigint();
        let request: WireRequest;
        try {
          request = decodeRequest(frame);
        } catch (error) {
          this.reject(error as Error);
          break;
        }
        const pending = this.execute(request);
        // Awaiting only real promises keeps reads free of microtask hops.
        const reply = pending instanceof Promise ? await pending : pending;
        if (request.moreToCome || this.closed) continue;
        const encoded = this.encode(request, reply);
        const encodedAt = process.hrtime.bigint();
        this.socket.write(encoded);
        this.handler.observe(Object.keys(request.command)[0] ?? '', encodedAt - started, process.hrtime.bigint() - encodedAt);
      }
    } catch (error) {
      this.reject(error as Error);
    } finally {
      this.running = false;
    }
  }

  private execute(request: WireRequest): Document | Promise<Document> {
    const internalError = (error: unknown): Document => {
      this.logger.error({ connectionId: this.id, err: error }, 'command handler threw');
      return { ok: 0, errmsg: `internal error: ${(error as Error).message}`, code: 1, codeName: 'InternalError' };
    };
    try {
      const reply = this.handler.execute(request, this.id);
      return reply instanceof Promise ? reply.catch(internalError) : reply;
    } catch (error) {
      return internalError(error);
    }
  }

  private encode(request: WireRequest, reply: Document): Buffer {
    try {
      return encodeReply(request, reply);
    } catch (error) {
      const errmsg = `reply could not be encoded: ${(error as Error).message}`;
      return encodeReply(request, { ok: 0, errmsg, code: 10334, codeName: 'BSONObjectTooLarge' });
    }
  }

  private reject(error: Error): void {
    const reason = error instanceof MalformedMessageError ? error.message : `internal error: ${error.message}`;
    this.logger.warn({ connectionId: this.id, remote: this.socket.remoteAddress, reason }, 'closing connection: malformed message');
    this.close();
  }
}

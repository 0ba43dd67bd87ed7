// The TCP listener: accepts driver connections and hands their requests to the dispatcher.
import { createServer, type Server, type Socket } from 'node:net';
import type { Document } from 'bson';
import type { Logger } from 'pino';
import type { CommandDispatcher } from './commands/command-dispatcher.js';
import { WIRE_LIMITS } from './commands/command-context.js';
import type { ServerStats } from './server-stats.js';
import { ClientConnection } from './wire/client-connection.js';
import type { WireRequest } from './wire/wire-message.js';

export interface ListenerOptions {
  dispatcher: CommandDispatcher;
  stats: ServerStats;
  logger: Logger;
}

export class EmbeddedListener {
  private readonly server: Server;
  private readonly connections = new Set<ClientConnection>();
  private nextConnectionId = 1;
  private totalCreated = 0;

  constructor(private readonly options: ListenerOptions) {
    this.server = createServer((socket) => this.accept(socket));
    // A listener error after startup (e.g. EMFILE) must not take the process down.
    this.server.on('error', (error) => options.logger.error({ err: error }, 'listener error'));
  }

  connectionCounts(): { current: number; totalCreated: number } {
    return { current: this.connections.size, totalCreated: this.totalCreated };
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      this.server.once('error', onError);
      this.server.listen(port, host, () => {
        this.server.off('error', onError);
        const address = this.server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const connection of this.connections) connection.close();
    await closed;
  }

  private accept(socket: Socket): void {
    const id = this.nextConnectionId++;
    this.totalCreated += 1;
    const { dispatcher, stats, logger } = this.options;
    const handler = {
      execute: (request: WireRequest, connectionId: number): Document | Promise<Document> =>
        dispatcher.execute(request.command, request.dbName, connectionId),
      observe: (name: string, processing: bigint, writing: bigint) => stats.observe(name, processing, writing),
    };
    const connection = new ClientConnection(socket, id, handler, logger, WIRE_LIMITS.maxMessageSizeBytes);
    this.connections.add(connection);
    socket.on('close', () => this.connections.delete(connection));
  }
}

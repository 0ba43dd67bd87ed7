// Composition root of the embedded server: storage, dispatcher, listener and housekeeping timers.
import type { Logger } from 'pino';
import { pino } from 'pino';
import { CommandDispatcher, type ChangeCommitter } from './commands/command-dispatcher.js';
import { EmbeddedListener } from './embedded-server.js';
import { Catalog } from './engine/catalog.js';
import { CursorRegistry } from './engine/cursor-registry.js';
import { expireDocuments } from './engine/ttl-monitor.js';
import { ServerStats } from './server-stats.js';

export interface EmbeddedServerOptions {
  host?: string;
  port?: number;
  dbPath?: string;
  logger?: Logger;
  /** Journal size that triggers a snapshot + compaction (tests lower it to exercise compaction). */
  journalMaxBytes?: number;
  /** How often expired TTL documents are removed; mongod uses 60 s, we check every second. */
  ttlIntervalMs?: number;
}

export interface RunningServer {
  uri: string;
  port: number;
  stop(): Promise<void>;
}

interface Storage {
  catalog: Catalog;
  committer: ChangeCommitter;
  stats(): Record<string, unknown>;
  close(): Promise<void>;
}

function inMemoryStorage(): Storage {
  return { catalog: new Catalog(), committer: { commit: () => undefined }, stats: () => ({ durable: false }), close: async () => {} };
}

export async function startEmbeddedServer(options: EmbeddedServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? pino({ level: 'silent' });
  const host = options.host ?? '127.0.0.1';
  const storage = options.dbPath ? await openDurableStorage(options.dbPath, options, logger) : inMemoryStorage();
  const stats = new ServerStats();
  const cursors = new CursorRegistry();
  const startedAt = new Date();
  let listener: EmbeddedListener | undefined;
  const dispatcher = new CommandDispatcher({
    catalog: storage.catalog,
    cursors,
    committer: storage.committer,
    logger,
    server: {
      startedAt,
      connections: () => listener?.connectionCounts() ?? { current: 0, totalCreated: 0 },
      embeddedStats: () => ({ commands: stats.snapshot(), storage: storage.stats(), openCursors: cursors.size }),
    },
  });
  listener = new EmbeddedListener({ dispatcher, stats, logger });
  let port: number;
  try {
    port = await listener.listen(host, options.port ?? 0);
  } catch (error) {
    await storage.close();
    throw error;
  }

  const ttlTimer = setInterval(() => {
    if (expireDocuments(storage.catalog) === 0) return;
    const changes = storage.catalog.drainChanges();
    Promise.resolve(storage.committer.commit(changes)).catch((error) => logger.error({ err: error }, 'TTL deletions not journaled'));
  }, options.ttlIntervalMs ?? 1000);
  const sweepTimer = setInterval(() => cursors.sweep(), 60_000);
  ttlTimer.unref();
  sweepTimer.unref();

  const uri = `mongodb://${host}:${port}`;
  logger.info({ uri, dbPath: options.dbPath ?? null }, 'embedded mongo listening');
  let stopping: Promise<void> | undefined;
  return {
    uri,
    port,
    stop: () => {
      stopping ??= (async () => {
        clearInterval(ttlTimer);
        clearInterval(sweepTimer);
        await listener.close();
        await storage.close();
        logger.info({ uri }, 'embedded mongo stopped');
      })();
      return stopping;
    },
  };
}

async function openDurableStorage(dbPath: string, options: EmbeddedServerOptions, logger: Logger): Promise<Storage> {
  const { openDurableStore } = await import('./durability/durable-store.js');
  return openDurableStore({ directory: dbPath, journalMaxBytes: options.journalMaxBytes, logger });
}

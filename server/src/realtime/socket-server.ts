// socket.io on the API's HTTP server: handshake auth once in io.use, site rooms chosen by the server, event streams.
import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import {
  type ClientToServerEvents,
  type CopilotProgressEvent,
  DomainError,
  ErrorCode,
  type InterServerEvents,
  type ServerToClientEvents,
  type SiteEvent,
  parseSiteEvent,
  SITE_EVENT_CHANNEL,
  SocketHandshakeAuth,
} from '@lumibase/shared';
import type { RedisClientType } from 'redis';
import { Server, type Socket } from 'socket.io';
import type { Logger } from '../logger.js';
import type { EventLogStore } from '../store/event-log.store.js';
import { FreshReads } from '../store/fresh-reads.js';
import { SiteStreams } from './site-streams.js';
import { SocketEventStream, type StreamLog } from './socket-event-stream.js';

export interface SocketIdentity {
  userId: string;
  sessionId: string;
  siteId: string;
  sessionExpiresAt: Date;
}

/**
 * Resolves a handshake to who is connecting and for which site; throws UnauthenticatedError or
 * ForbiddenError. `request` is the handshake's HTTP request (its cookie, Origin and Host).
 */
export type AuthenticateSocket = (handshake: { token?: string; siteId: string; request: IncomingMessage }) => Promise<SocketIdentity>;

interface SocketData {
  identity: SocketIdentity;
  lastSeq?: number;
}

export type LumiSocketServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/**
 * The Redis channel key of the socket.io adapter and of the workers' emitter, under QUEUE_PREFIX:
 * deployments sharing one Redis must not exchange each other's events.
 */
export const socketIoKey = (prefix: string) => `${prefix}:socket.io`;

export const siteRoom = (siteId: string) => `site:${siteId}`;
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
export const memberRoom = (siteId: string, userId: string) => `member:${siteId}:${userId}`;

export interface SocketServerOptions {
  logger: Logger;
  /** With Redis, N server processes share rooms and receive each other's (and the workers') site events. */
  redis?: RedisClientType;
  /** STUDIO_ORIGIN, allowed cross-origin with credentials. */
  studioOrigin?: string | undefined;
  /** QUEUE_PREFIX: the adapter's channel is this deployment's own (socketIoKey). */
  prefix?: string;
}

export interface ServeSocketsOptions {
  httpServer: HttpServer;
  authenticate: AuthenticateSocket;
  eventLog: (siteId: string) => EventLogStore;
  /** Most events replayed to a reconnecting socket (REPLAY_MAX_EVENTS). */
  replayMaxEvents: number;
}

function handshakeError(error: unknown): Error {
  const code = error instanceof DomainError && error.code === ErrorCode.FORBIDDEN ? 'FORBIDDEN' : 'UNAUTHENTICATED';
  return new Error(code);
}

/**
 * Built before the domain, since the outbox relay publishes through it; `serve` then attaches it to
 * the HTTP server with the handshake's authentication once the services exist.
 */
export async function createSocketServer({ logger, redis, studioOrigin, prefix }: SocketServerOptions) {
  // The Studio on another origin (STUDIO_ORIGIN) may poll with its cookie; no other origin gets CORS headers.
  const cors = studioOrigin ? { origin: new URL(studioOrigin).origin, credentials: true } : undefined;
  const io: LumiSocketServer = new Server({ path: '/socket.io', serveClient: false, ...(cors ? { cors } : {}) });
  let subscriber: RedisClientType | undefined;
  let publisher: RedisClientType | undefined;
  if (redis) {
    // The adapter's own connections keep an offline queue: a broadcast during a Redis blip is sent once
    // it is back, rather than failing inside the adapter where nothing could catch it.
    // Named, so an operator (and a test) can tell them apart in CLIENT LIST.
    publisher = redis.duplicate({ disableOfflineQueue: false, name: `lumibase-sockets-pub-${prefix ?? 'default'}` });
    subscriber = redis.duplicate({ disableOfflineQueue: false, name: `lumibase-sockets-sub-${prefix ?? 'default'}` });
    for (const [client, role] of [
      [publisher, 'publisher'],
      [subscriber, 'subscriber'],
    ] as const) {
      client.on('error', (error: Error) => logger.warn({ reason: error.message }, `socket.io redis ${role} error`));
      await client.connect();
    }
    io.adapter(createAdapter(publisher, subscriber, prefix === undefined ? {} : { key: socketIoKey(prefix) }));
  }
  // Caught-up sockets get a site event in one local broadcast (encoded once); the adapter must not send it on: every
  // process publishes to its own sockets (serverSideEmit below).
  // The union is checked by its name; TypeScript cannot narrow the variadic emit signature from it (as in the stream).
  const streams = new SiteStreams((socketIds, event) =>
    (io.local.to(socketIds).emit as (name: string, payload: unknown) => boolean)(event.name, event.payload),
  );
  let served = false;
  if (subscriber) catchUpAfterResubscribe(subscriber, streams, logger);
  // What else in this process hears every site event (a decision waiting for its approval's outcome).
  const observers = new Set<(event: SiteEvent) => void>();
  const deliver = (event: SiteEvent) => {
    streams.deliver(event);
    for (const observe of observers) observe(event);
  };

  // Sent by another process: parsed, not trusted to be what the type says.
  io.on(SITE_EVENT_CHANNEL, (sent) => {
    const event = parseSiteEvent(sent);
    if (event) deliver(event);
    else logger.warn('ignored a malformed site event');
  });

  return {
    io,
    streams,
    /** Hands a site event to this process's sockets and, through the adapter, to every other server's. */
    publish(event: SiteEvent): void {
      deliver(event);
      if (redis) io.serverSideEmit(SITE_EVENT_CHANNEL, event);
    },
    /** `observe` hears every site event this process's sockets get, its own and other processes'; returns its removal. */
    observe(observe: (event: SiteEvent) => void): () => void {
      observers.add(observe);
      return () => observers.delete(observe);
    },
    /**
     * Authenticates handshakes, joins sockets to their rooms and streams their site's events. The app
     * must already be the server's request listener: socket.io then takes /socket.io/ requests and
     * hands every other one to the app (otherwise both would answer them).
     */
    serve({ httpServer, authenticate, eventLog, replayMaxEvents }: ServeSocketsOptions): void {
      const streamLog = sharedSeqReads(eventLog);
      io.use(async (socket, next) => {
        const parsed = SocketHandshakeAuth.safeParse(socket.handshake.auth);
        if (!parsed.success) {
          const hasCredentials = Boolean(socket.handshake.auth?.token || socket.handshake.headers.cookie);
          return next(new Error(hasCredentials ? 'FORBIDDEN' : 'UNAUTHENTICATED'));
        }
        try {
          const { token, siteId, lastSeq } = parsed.data;
          const identity = await authenticate({ siteId, request: socket.request, ...(token ? { token } : {}) });
          socket.data.identity = identity;
          if (lastSeq !== undefined) socket.data.lastSeq = lastSeq;
          next();
        } catch (error) {
          if (!(error instanceof DomainError)) logger.error({ err: error }, 'socket handshake failed');
          next(handshakeError(error));
        }
      });

      io.on('connection', (socket: Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>) => {
        const { identity, lastSeq } = socket.data;
        void socket.join([siteRoom(identity.siteId), sessionRoom(identity.sessionId), memberRoom(identity.siteId, identity.userId)]);
        const stream = new SocketEventStream(socket, streamLog(identity.siteId), logger, { maxEvents: replayMaxEvents });
        const remove = streams.add(identity.siteId, stream, socket.id);
        void stream.start(lastSeq);
        // An expired session must not keep a live socket.
        const untilExpiry = Math.max(0, identity.sessionExpiresAt.getTime() - Date.now());
        const expiry = setTimeout(() => socket.disconnect(true), Math.min(untilExpiry, 2 ** 31 - 1));
        socket.on('disconnect', () => {
          clearTimeout(expiry);
          remove();
        });
      });
      io.attach(httpServer);
      served = true;
    },
    /** A Copilot turn's progress to the sockets of one session (through the adapter, on any server process). */
    sendCopilotProgress(sessionId: string, event: CopilotProgressEvent): void {
      io.to(sessionRoom(sessionId)).emit('copilot-progress', event);
    },
    /** A continued run's reply, to the requester's sockets on whichever server holds them (the adapter). */
    sendToMember(siteId: string, userId: string, event: CopilotProgressEvent): void {
      io.to(memberRoom(siteId, userId)).emit('copilot-progress', event);
    },
    async close(): Promise<void> {
      // An unattached server has no engine to close (io.close would throw).
      if (served) await io.close();
      for (const client of [subscriber, publisher]) {
        if (client?.isReady) await client.quit().catch(() => client.destroy());
        else client?.destroy();
      }
    },
  };
}

export type SocketServer = Awaited<ReturnType<typeof createSocketServer>>;

/**
 * Each socket's stream starts by reading its site's latest seq (two reads). The sockets of a site that connect at
 * once (a deploy, a Redis or network blip reconnecting them all) share those reads: each still gets a seq read after it
 * connected (FreshReads), so it misses nothing published since. Without this, every handshake of a thousand-socket
 * reconnect read the log on its own, and that garbage, outliving the young generation, was most of a socket's memory.
 */
function sharedSeqReads(eventLog: (siteId: string) => EventLogStore): (siteId: string) => StreamLog {
  const latest = new FreshReads<number>();
  return (siteId) => {
    const log = eventLog(siteId);
    return {
      siteId: log.siteId,
      currentSeq: () => latest.read(log.siteId, () => log.currentSeq()),
      listAfter: (after, upTo, limit) => log.listAfter(after, upTo, limit),
    };
  };
}

/** When the subscriber is back after its connection dropped: its re-subscription and the catch-ups that follow it. */
const CATCH_UP_AFTER_RECONNECT_MS = [500, 3000];

/**
 * Another process's events reach this one over Redis pub/sub, which keeps nothing for a subscriber that is away: an
 * event published while the subscription was down (a Redis restart, a dropped connection) would reach this process's
 * sockets only with the next event of its site, and never if none came. Every event is in the log before it is
 * published, so once the subscriber is back each socket catches up from the log: once soon after it is ready (its
 * channels subscribed again) and once later (a publisher whose own offline queue was flushed meanwhile).
 */
function catchUpAfterResubscribe(subscriber: RedisClientType, streams: SiteStreams, logger: Logger): void {
  let dropped = false;
  const timers = new Set<NodeJS.Timeout>();
  subscriber.on('end', () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  });
  subscriber.on('reconnecting', () => {
    dropped = true;
  });
  subscriber.on('ready', () => {
    if (!dropped) return;
    dropped = false;
    logger.info({ sockets: streams.count() }, 'socket.io redis subscriber back: sockets catch up from the event log');
    for (const delay of CATCH_UP_AFTER_RECONNECT_MS) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        void streams.refreshAll();
      }, delay);
      timer.unref();
      timers.add(timer);
    }
  });
}

// One socket for one site: sends lastSeq on every (re)connect, applies site events in seq order, asks for a refetch when needed.
import type { SocketHandshakeAuth } from '@lumibase/shared';
import { io } from 'socket.io-client';
import {
  CopilotProgressEvent,
  ResyncRequiredEvent,
  SITE_EVENT_NAMES,
  SITE_EVENT_SCHEMAS,
  type SequencedEvent,
  type SiteEventName,
} from './events.js';
import { SeqOrderer } from './seq-orderer.js';

export type ConnectionStatus = 'idle' | 'connecting' | 'live' | 'reconnecting' | 'offline' | 'denied';

/** What the Studio sends: no token (the session cookie authenticates), the site, and where to resume. */
export type Handshake = Pick<SocketHandshakeAuth, 'siteId' | 'lastSeq'>;

/** The part of a socket.io client socket this class uses (a fake in tests). */
export interface SocketLike {
  on(event: string, listener: (...args: never[]) => void): unknown;
  connect(): unknown;
  disconnect(): unknown;
}

export type SocketFactory = (options: { auth: (reply: (handshake: Handshake) => void) => void }) => SocketLike;

// WebSocket only, no HTTP long-polling: in scale mode each of N servers may take any request, and polling would
// need sticky sessions to keep one socket's requests on one server. The upgrade request carries the session cookie.
export const createBrowserSocket: SocketFactory = ({ auth }) =>
  io({ path: '/socket.io', transports: ['websocket'], autoConnect: false, withCredentials: true, auth, reconnectionDelayMax: 10_000 });

export interface RealtimeClientOptions {
  siteId: string;
  /** The seq the caller's data is current to (e.g. `meta.seq` of a list); undefined starts from live events. */
  lastSeq?: number | undefined;
  createSocket?: SocketFactory;
  gapTimeoutMs?: number;
  /** Sequenced events, exactly once each, in seq order. */
  onEvent: (event: SequencedEvent) => void;
  /** Data may have missed events: refetch. `seq` is where the stream continues from, when known. */
  onResync: (seq: number | undefined) => void;
  onStatus: (status: ConnectionStatus, detail?: string) => void;
  onUnauthenticated?: () => void;
  /** A Copilot turn's progress (the caller's own turns only; no seq, not replayed), parsed; malformed ones are dropped. */
  onCopilotProgress?: (event: CopilotProgressEvent) => void;
}

const SERVER_DISCONNECT_RETRY_MS = 1500;

export class RealtimeClient {
  readonly siteId: string;
  readonly #options: RealtimeClientOptions;
  readonly #orderer: SeqOrderer<SequencedEvent>;
  #socket: SocketLike | undefined;
  #closed = false;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: RealtimeClientOptions) {
    this.siteId = options.siteId;
    this.#options = options;
    this.#orderer = new SeqOrderer<SequencedEvent>({
      lastSeq: options.lastSeq,
      gapTimeoutMs: options.gapTimeoutMs,
      deliver: (event) => this.#deliver(event),
      // The server replays everything after lastSeq on a new handshake, which fills the gap.
      onGap: () => this.#reconnect(),
    });
  }

  get lastSeq(): number | undefined {
    return this.#orderer.lastSeq;
  }

  start(): void {
    const createSocket = this.#options.createSocket ?? createBrowserSocket;
    const socket = createSocket({ auth: (reply) => reply(this.#handshake()) });
    this.#socket = socket;
    this.#status('connecting');

    let connectedBefore = false;
    socket.on('connect', () => {
      this.#status('live');
      // The first connection: data loaded before it may predate the starting seq, so refetch once.
      // Later ones replay from lastSeq, unless there is none yet (then events may have passed unseen).
      if (!connectedBefore || this.#orderer.lastSeq === undefined) this.#options.onResync(undefined);
      connectedBefore = true;
    });
    socket.on('disconnect', (reason: string) => {
      if (this.#closed) return;
      if (reason === 'io server disconnect') {
        // Logout or a removed membership; one retry tells which (the handshake is refused with a reason).
        this.#status('offline', reason);
        this.#retryTimer = setTimeout(() => this.#socket?.connect(), SERVER_DISCONNECT_RETRY_MS);
      } else {
        this.#status('reconnecting', reason);
      }
    });
    socket.on('connect_error', (error: Error) => {
      if (this.#closed) return;
      if (error.message === 'UNAUTHENTICATED') {
        this.#status('denied', error.message);
        this.#options.onUnauthenticated?.();
      } else if (error.message === 'FORBIDDEN') {
        this.#status('denied', error.message);
      } else {
        this.#status('reconnecting', error.message);
      }
    });
    for (const name of SITE_EVENT_NAMES) socket.on(name, (raw: unknown) => this.#receive(name, raw));
    socket.on('resync-required', (raw: unknown) => this.#resync(raw));
    socket.on('copilot-progress', (raw: unknown) => this.#progress(raw));
    socket.connect();
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    this.#orderer.dispose();
    this.#socket?.disconnect();
    this.#socket = undefined;
    this.#status('idle');
  }

  #handshake(): Handshake {
    const lastSeq = this.#orderer.lastSeq;
    return lastSeq === undefined ? { siteId: this.siteId } : { siteId: this.siteId, lastSeq };
  }

  #receive(type: SiteEventName, raw: unknown): void {
    const envelope = raw as { seq?: unknown; siteId?: unknown } | null;
    if (!envelope || typeof envelope.seq !== 'number' || !Number.isInteger(envelope.seq)) return;
    if (envelope.siteId !== this.siteId) return;
    const parsed = SITE_EVENT_SCHEMAS[type].safeParse(raw);
    // A payload that breaks the contract still takes its place in the sequence, so later events are not held back.
    this.#orderer.push({ type, seq: envelope.seq, payload: parsed.success ? parsed.data : undefined });
  }

  #deliver(event: SequencedEvent): void {
    if (event.payload === undefined) {
      console.warn(`LumiBase: ignored a malformed ${event.type} event (seq ${event.seq})`);
      return;
    }
    this.#options.onEvent(event);
  }

  #resync(raw: unknown): void {
    const parsed = ResyncRequiredEvent.safeParse(raw);
    if (!parsed.success || parsed.data.siteId !== this.siteId) return;
    this.#orderer.reset(parsed.data.seq);
    this.#options.onResync(parsed.data.seq);
  }

  #progress(raw: unknown): void {
    const parsed = CopilotProgressEvent.safeParse(raw);
    if (parsed.success) this.#options.onCopilotProgress?.(parsed.data);
  }

  #reconnect(): void {
    if (this.#closed || !this.#socket) return;
    this.#socket.disconnect();
    this.#socket.connect();
  }

  #status(status: ConnectionStatus, detail?: string): void {
    this.#options.onStatus(status, detail);
  }
}

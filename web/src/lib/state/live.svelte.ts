// The tab's live connection to the current site: one RealtimeClient at a time, listeners that survive site switches.
import type { CopilotProgressEvent, SequencedEvent, SiteEventName, SiteEventPayloads } from '../realtime/events.js';
import { type ConnectionStatus, RealtimeClient, type SocketFactory } from '../realtime/realtime-client.js';

type EventListener = (event: SequencedEvent) => void;
type ResyncListener = (seq: number | undefined) => void;
type ProgressListener = (event: CopilotProgressEvent) => void;

export interface LiveStateOptions {
  createSocket?: SocketFactory;
  onUnauthenticated?: () => void;
  /** The site's current event seq (docs/API.md: `GET /ai/approvals` → `meta.seq`), undefined when it cannot be read. */
  currentSeq?: (siteId: string) => Promise<number | undefined>;
}

export class LiveState {
  status = $state<ConnectionStatus>('idle');
  siteId = $state<string | undefined>(undefined);
  /** The seq of the last event applied, for a connection indicator or a debug view. */
  lastSeq = $state<number | undefined>(undefined);

  readonly #options: LiveStateOptions;
  readonly #eventListeners = new Set<EventListener>();
  readonly #resyncListeners = new Set<ResyncListener>();
  readonly #progressListeners = new Set<ProgressListener>();
  #client: RealtimeClient | undefined;
  /** The site being connected to (plain field: compared inside effects without subscribing to it). */
  #target: string | undefined;

  constructor(options: LiveStateOptions = {}) {
    this.#options = options;
  }

  /**
   * Opens the site's socket (closing the previous site's). `lastSeq` when the caller's data is current to a seq;
   * otherwise the site's current seq is read first, so the stream starts gap-free from there.
   */
  async connect(siteId: string, lastSeq?: number): Promise<void> {
    if (this.#target === siteId) return;
    this.disconnect();
    this.#target = siteId;
    this.siteId = siteId;
    this.status = 'connecting';
    const startSeq = lastSeq ?? (await this.#options.currentSeq?.(siteId).catch(() => undefined));
    // The site may have changed while the seq was read.
    if (this.#target !== siteId || this.#client) return;
    this.#start(siteId, startSeq);
  }

  #start(siteId: string, lastSeq: number | undefined): void {
    this.lastSeq = lastSeq;
    const client = new RealtimeClient({
      siteId,
      lastSeq,
      ...(this.#options.createSocket ? { createSocket: this.#options.createSocket } : {}),
      onEvent: (event) => {
        this.lastSeq = event.seq;
        for (const listener of this.#eventListeners) listener(event);
      },
      onResync: (seq) => {
        if (seq !== undefined) this.lastSeq = seq;
        for (const listener of this.#resyncListeners) listener(seq);
      },
      onStatus: (status) => {
        if (this.#client === client) this.status = status;
      },
      onUnauthenticated: () => this.#options.onUnauthenticated?.(),
      onCopilotProgress: (event) => {
        for (const listener of this.#progressListeners) listener(event);
      },
    });
    this.#client = client;
    client.start();
  }

  disconnect(): void {
    const client = this.#client;
    this.#client = undefined;
    this.#target = undefined;
    client?.close();
    this.siteId = undefined;
    this.status = 'idle';
  }

  /** Subscribes to one event type of the current site; returns the unsubscribe function. */
  on<Name extends SiteEventName>(type: Name, handler: (payload: SiteEventPayloads[Name]) => void): () => void {
    const listener: EventListener = (event) => {
      if (event.type === type) handler(event.payload as SiteEventPayloads[Name]);
    };
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }

  /** Called when views must refetch because events may have been missed. */
  onResync(handler: ResyncListener): () => void {
    this.#resyncListeners.add(handler);
    return () => this.#resyncListeners.delete(handler);
  }

  /** Called with each copilot-progress event of this tab's session (the Copilot turn in flight). */
  onCopilotProgress(handler: ProgressListener): () => void {
    this.#progressListeners.add(handler);
    return () => this.#progressListeners.delete(handler);
  }
}

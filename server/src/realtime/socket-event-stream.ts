// One socket's view of its site's events: replay from lastSeq, then live ones, in seq order, no gap, no duplicate.
import type { ServerToClientEvents, SiteEvent, SiteEventName } from '@lumibase/shared';
import type { Logger } from '../logger.js';
import type { EventLogStore } from '../store/event-log.store.js';

/** What a site's event stream sends: the sequenced events and resync-required (never copilot-progress). */
export type StreamedEventName = SiteEventName | 'resync-required';

export interface EventSink {
  emit<Name extends StreamedEventName>(name: Name, ...payload: Parameters<ServerToClientEvents[Name]>): unknown;
}

/**
 * Every step runs on one promise chain, so live events that arrive while the replay is reading the
 * log wait behind it (the buffer), and are then sent only if the replay did not already send them.
 * A live event ahead of the last sent seq (another process published earlier seqs later) first
 * fills the gap from the log, where every event is appended before it is published.
 */
export class SocketEventStream {
  private lastSentSeq = 0;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly sink: EventSink,
    private readonly log: EventLogStore,
    private readonly logger: Logger,
  ) {}

  /** Starts the stream: replays the events after `lastSeq`, or (without it) starts from the current seq. */
  start(lastSeq: number | undefined): Promise<void> {
    return this.enqueue(() => (lastSeq === undefined ? this.startLive() : this.replay(lastSeq)));
  }

  deliver(event: SiteEvent): Promise<void> {
    return this.enqueue(() => this.send(event));
  }

  close(): void {
    this.closed = true;
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(step).catch((error: unknown) => {
      this.logger.error({ err: error, siteId: this.log.siteId }, 'event stream step failed');
    });
    return this.chain;
  }

  private async startLive(): Promise<void> {
    this.lastSentSeq = await this.log.currentSeq();
  }

  private async replay(lastSeq: number): Promise<void> {
    const current = await this.log.currentSeq();
    if (lastSeq > current) return this.resync(current);
    if (lastSeq === current) {
      this.lastSentSeq = current;
      return;
    }
    const missed = await this.log.listAfter(lastSeq, current);
    // A replay must start right after lastSeq; anything else means the retention window passed it.
    if (missed[0]?.payload.seq !== lastSeq + 1 || missed.length !== current - lastSeq) return this.resync(current);
    this.lastSentSeq = lastSeq;
    for (const event of missed) this.emit(event);
  }

  private async send(event: SiteEvent): Promise<void> {
    const { seq } = event.payload;
    if (seq <= this.lastSentSeq) return;
    if (seq > this.lastSentSeq + 1) {
      const gap = await this.log.listAfter(this.lastSentSeq, seq - 1);
      if (gap.length !== seq - 1 - this.lastSentSeq) return this.resync(await this.log.currentSeq());
      for (const missing of gap) this.emit(missing);
    }
    this.emit(event);
  }

  private emit(event: SiteEvent): void {
    if (this.closed || event.payload.seq !== this.lastSentSeq + 1) return;
    this.lastSentSeq = event.payload.seq;
    // The union is checked by its name; TypeScript cannot narrow the variadic emit signature from it.
    (this.sink.emit as (name: string, payload: unknown) => void)(event.name, event.payload);
  }

  private resync(current: number): void {
    this.lastSentSeq = current;
    if (!this.closed) this.sink.emit('resync-required', { siteId: this.log.siteId, seq: current });
  }
}

// One socket's view of its site's events: replay from lastSeq, then live ones, in seq order, no gap, no duplicate.
import type { ServerToClientEvents, SiteEvent, SiteEventName } from '@lumibase/shared';
import type { Logger } from '../logger.js';
import type { EventLogStore } from '../store/event-log.store.js';

/** What a site's event stream sends: the sequenced events and resync-required (never copilot-progress). */
export type StreamedEventName = SiteEventName | 'resync-required';

export interface EventSink {
  emit<Name extends StreamedEventName>(name: Name, ...payload: Parameters<ServerToClientEvents[Name]>): unknown;
}

/** What a stream reads of its site's log (socket-server.ts shares the latest-seq reads of a site's sockets). */
export type StreamLog = Pick<EventLogStore, 'siteId' | 'currentSeq' | 'listAfter'>;

export interface ReplayLimits {
  /** Most events sent from the log to catch a socket up (REPLAY_MAX_EVENTS); further behind, it is asked to resync. */
  maxEvents: number;
  /** Events read from the log at once, so a long catch-up never holds the whole range in memory. */
  pageSize?: number;
}

const DEFAULT_PAGE_SIZE = 100;

/**
 * Every step runs on one promise chain, so live events that arrive while the replay is reading the
 * log wait behind it (the buffer), and are then sent only if the replay did not already send them.
 * A live event ahead of the last sent seq (another process published earlier seqs later) first
 * fills the gap from the log, where every event is appended before it is published.
 * Catching up (the replay, or filling a gap) sends at most `maxEvents`, read a page at a time:
 * a socket connecting with `lastSeq: 0` must not make the server load the site's whole log.
 */
export class SocketEventStream {
  private lastSentSeq = 0;
  private chain: Promise<void> = Promise.resolve();
  /** Steps queued on the chain or running: while there are any, a live event must wait its turn behind them. */
  private pending = 0;
  private closed = false;
  private readonly maxEvents: number;
  private readonly pageSize: number;

  constructor(
    private readonly sink: EventSink,
    private readonly log: StreamLog,
    private readonly logger: Logger,
    { maxEvents, pageSize = DEFAULT_PAGE_SIZE }: ReplayLimits,
  ) {
    this.maxEvents = maxEvents;
    this.pageSize = Math.min(pageSize, maxEvents);
  }

  /** Starts the stream: replays the events after `lastSeq`, or (without it) starts from the current seq. */
  start(lastSeq: number | undefined): Promise<void> {
    return this.enqueue(() => (lastSeq === undefined ? this.startLive() : this.replay(lastSeq)));
  }

  deliver(event: SiteEvent): Promise<void> {
    return this.enqueue(() => this.send(event));
  }

  /**
   * Takes a live event to be sent outside the chain, by one broadcast to every stream of the site that took it
   * (one encode for the room, not one per socket). True only when this stream is caught up and idle: the event is
   * exactly the next seq and no step is queued or running, so sending it now keeps the order. The stream then
   * counts it as sent. False: hand it to `deliver`, which fills a gap, drops a duplicate or waits behind a replay.
   */
  claimNext(event: SiteEvent): boolean {
    if (this.closed || this.pending > 0 || event.payload.seq !== this.lastSentSeq + 1) return false;
    this.lastSentSeq = event.payload.seq;
    return true;
  }

  /**
   * Sends what the log holds beyond the last sent event, up to `current` (the site's latest seq, read once for
   * all of its sockets; read here when not given): after a publish this process may have missed.
   */
  refresh(current?: number): Promise<void> {
    return this.enqueue(async () => {
      const upTo = current ?? (await this.log.currentSeq());
      if (upTo > this.lastSentSeq) await this.catchUp(upTo);
    });
  }

  /** The site's latest seq in the log. */
  latestSeq(): Promise<number> {
    return this.log.currentSeq();
  }

  close(): void {
    this.closed = true;
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    this.pending++;
    this.chain = this.chain
      .then(step)
      .catch((error: unknown) => {
        this.logger.error({ err: error, siteId: this.log.siteId }, 'event stream step failed');
      })
      .then(() => {
        this.pending--;
      });
    return this.chain;
  }

  private async startLive(): Promise<void> {
    this.lastSentSeq = await this.log.currentSeq();
  }

  private async replay(lastSeq: number): Promise<void> {
    const current = await this.log.currentSeq();
    if (lastSeq > current) return this.resync(current);
    this.lastSentSeq = lastSeq;
    await this.catchUp(current);
  }

  private async send(event: SiteEvent): Promise<void> {
    const { seq } = event.payload;
    if (seq <= this.lastSentSeq) return;
    if (seq > this.lastSentSeq + 1 && !(await this.catchUp(seq - 1))) return;
    this.emit(event);
  }

  /**
   * Sends the logged events after the last sent one up to `upTo`, a page at a time. False (after a
   * resync) when that is more than `maxEvents`, or when the log no longer holds them all (the
   * retention window passed them).
   */
  private async catchUp(upTo: number): Promise<boolean> {
    if (upTo - this.lastSentSeq > this.maxEvents) {
      this.resync(await this.log.currentSeq());
      return false;
    }
    while (this.lastSentSeq < upTo && !this.closed) {
      const expected = Math.min(this.pageSize, upTo - this.lastSentSeq);
      const page = await this.log.listAfter(this.lastSentSeq, upTo, expected);
      // Seqs are unique: `expected` events ending at lastSent + expected are exactly the next ones.
      if (page.length !== expected || page.at(-1)?.payload.seq !== this.lastSentSeq + expected) {
        this.resync(await this.log.currentSeq());
        return false;
      }
      for (const event of page) this.emit(event);
    }
    return !this.closed;
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

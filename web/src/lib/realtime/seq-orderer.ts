// Applies sequenced events exactly once and in `seq` order: buffers early ones, drops duplicates, reports gaps.

export interface SeqOrdererOptions<Event extends { seq: number }> {
  /** The last seq already applied; undefined takes the first event seen as the starting point. */
  lastSeq?: number | undefined;
  deliver: (event: Event) => void;
  /** Called when a missing seq has not arrived within `gapTimeoutMs` (or the buffer overflows). */
  onGap?: (lastSeq: number) => void;
  gapTimeoutMs?: number;
  maxBuffered?: number;
}

export type PushResult = 'applied' | 'buffered' | 'duplicate';

export class SeqOrderer<Event extends { seq: number }> {
  #lastSeq: number | undefined;
  readonly #buffer = new Map<number, Event>();
  readonly #deliver: (event: Event) => void;
  readonly #onGap: ((lastSeq: number) => void) | undefined;
  readonly #gapTimeoutMs: number;
  readonly #maxBuffered: number;
  #gapTimer: ReturnType<typeof setTimeout> | undefined;

  constructor({ lastSeq, deliver, onGap, gapTimeoutMs = 3000, maxBuffered = 500 }: SeqOrdererOptions<Event>) {
    this.#lastSeq = lastSeq;
    this.#deliver = deliver;
    this.#onGap = onGap;
    this.#gapTimeoutMs = gapTimeoutMs;
    this.#maxBuffered = maxBuffered;
  }

  get lastSeq(): number | undefined {
    return this.#lastSeq;
  }

  get buffered(): number {
    return this.#buffer.size;
  }

  push(event: Event): PushResult {
    const last = this.#lastSeq;
    if (last !== undefined && (event.seq <= last || this.#buffer.has(event.seq))) return 'duplicate';
    if (last === undefined || event.seq === last + 1) {
      this.#apply(event);
      this.#flush();
      return 'applied';
    }
    this.#buffer.set(event.seq, event);
    if (this.#buffer.size > this.#maxBuffered) this.#reportGap();
    else this.#armGapTimer();
    return 'buffered';
  }

  /** After a resync: everything up to `seq` is covered by the refetch; continue from there. */
  reset(seq: number): void {
    this.#lastSeq = seq;
    for (const buffered of this.#buffer.keys()) if (buffered <= seq) this.#buffer.delete(buffered);
    this.#flush();
  }

  dispose(): void {
    this.#clearGapTimer();
    this.#buffer.clear();
  }

  #apply(event: Event): void {
    this.#lastSeq = event.seq;
    this.#deliver(event);
  }

  #flush(): void {
    for (;;) {
      const next = this.#lastSeq === undefined ? undefined : this.#buffer.get(this.#lastSeq + 1);
      if (!next) break;
      this.#buffer.delete(next.seq);
      this.#apply(next);
    }
    if (this.#buffer.size === 0) this.#clearGapTimer();
  }

  #armGapTimer(): void {
    if (this.#gapTimer !== undefined) return;
    this.#gapTimer = setTimeout(() => {
      this.#gapTimer = undefined;
      if (this.#buffer.size > 0) this.#reportGap();
    }, this.#gapTimeoutMs);
  }

  #clearGapTimer(): void {
    if (this.#gapTimer === undefined) return;
    clearTimeout(this.#gapTimer);
    this.#gapTimer = undefined;
  }

  #reportGap(): void {
    this.#clearGapTimer();
    if (this.#lastSeq !== undefined) this.#onGap?.(this.#lastSeq);
  }
}

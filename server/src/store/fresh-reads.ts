// Reads that callers asking at once share, each still getting an answer as fresh as a read of its own would be.

/**
 * One read per key at a time: a caller gets the value of a read that started after it asked, never of one already
 * running (that one may have read before the caller's reason to ask existed). Callers that ask while a read runs all
 * share the next one, started once it succeeded. A thousand sockets of a site connecting at once then read the site's
 * latest seq a few times, not a thousand. A key's entry lives only while a read of it runs or waits.
 *
 * A failure is no stale value: when the running read fails, the callers waiting for the next one fail with it, at
 * once. While the database is down they then answer within one read's timeout, not after the running read's timeout
 * and then their own.
 */
export class FreshReads<T> {
  private readonly inFlight = new Map<string, { running: Promise<T>; next?: Promise<T> }>();

  read(key: string, read: () => Promise<T>): Promise<T> {
    const entry = this.inFlight.get(key);
    if (!entry) return this.start(key, read);
    entry.next ??= entry.running.then(() => this.start(key, read));
    return entry.next;
  }

  /** Keys with a read running (tests and diagnostics). */
  get size(): number {
    return this.inFlight.size;
  }

  private start(key: string, read: () => Promise<T>): Promise<T> {
    const running = Promise.resolve().then(read);
    this.inFlight.set(key, { running });
    const done = () => {
      if (this.inFlight.get(key)?.running === running) this.inFlight.delete(key);
    };
    running.then(done, done);
    return running;
  }
}

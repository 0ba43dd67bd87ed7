// What a process learned of a token, a membership or a site's policy, trusted only under the access epoch it was learned under.
/**
 * Even under one epoch nothing is trusted longer than this. The epoch moves after every revocation, and a
 * revocation whose move failed answers an error; this bounds what such a failure could leave behind.
 */
export const ACCESS_TRUST_MS = 60_000;

/** Entries kept at once; the least recently used goes first. */
export const ACCESS_ENTRIES = 10_000;

interface Entry<T> {
  epoch: string;
  value: T;
  learnedAt: number;
}

/**
 * A bounded map whose entries answer only to the epoch they were stored under. The caller reads the epoch
 * before the records it stores (AccessEpochStore.current, then the reads): a revocation that lands between the
 * two moves the epoch, so the entry is never trusted.
 */
export class LearnedUnderEpoch<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly options: { limit?: number; trustMs?: number; now?: () => number } = {}) {}

  get(key: string, epoch: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.epoch !== epoch || this.now() - entry.learnedAt > (this.options.trustMs ?? ACCESS_TRUST_MS)) {
      this.entries.delete(key);
      return undefined;
    }
    // Most recently used last, so the oldest is first to go.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, epoch: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, { epoch, value, learnedAt: this.now() });
    const limit = this.options.limit ?? ACCESS_ENTRIES;
    while (this.entries.size > limit) this.entries.delete(this.entries.keys().next().value as string);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

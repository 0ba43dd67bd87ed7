// What this process last knew of each site's head (the latest seq of a log or chain), so an append can take the
// next seq without reading it first; the unique seq index refuses the guess when another process got there first.
export interface Head {
  seq: number;
}

/**
 * Trusting a cached seq is only safe while its successor cannot have expired (site events have a TTL): see
 * EventLogStore's append. Far below the shortest retention there is (one day), and long enough that a site with
 * any traffic never pays the read.
 */
export const HEAD_TRUST_MS = 10 * 60_000;

/**
 * Appends of one process that follow each other this closely are one burst: after the first, the head is this
 * process's own. Only a cost: read-first or not, every append is as safe (see `readFirst`).
 */
export const BURST_MS = 50;

interface Known<T> {
  head: T;
  learnedAt: number;
  /** Another process took a seq this one guessed, and no read has shown the site quiet since. */
  contended: boolean;
  /** When this process last appended here. */
  appendedAt: number;
  /** When this process last heard of another process's append, the latest it knows (see `heard`). */
  heardAt: number;
}

/**
 * The appends of one site run one at a time in a process (AppendQueues), so only other processes can move a head
 * behind this cache's back; when they do, the next append here collides on the seq and reads the real head.
 */
export class CachedHeads<T extends Head> {
  private readonly heads = new Map<string, Known<T>>();

  constructor(private readonly options: { trustMs?: number; now?: () => number } = {}) {}

  /** The head to append after, or undefined: never known here, or learned too long ago to be trusted. */
  get(siteId: string): T | undefined {
    const known = this.heads.get(siteId);
    if (!known) return undefined;
    if (this.now() - known.learnedAt > (this.options.trustMs ?? HEAD_TRUST_MS)) {
      this.heads.delete(siteId);
      return undefined;
    }
    return known.head;
  }

  /**
   * `head` was the site's latest (or existed, and nothing later was known) at this moment. A head behind the one
   * known is ignored: the known seq existed, so inserting after the lower one would reuse a seq.
   */
  learn(siteId: string, head: T): void {
    const known = this.heads.get(siteId);
    if (known && known.head.seq > head.seq) return;
    this.heads.set(siteId, {
      head,
      learnedAt: this.now(),
      contended: known?.contended ?? false,
      appendedAt: known?.appendedAt ?? 0,
      heardAt: known?.heardAt ?? 0,
    });
  }

  /**
   * Another process appended `head` at `at` (its event reached this process, or a job it queued named it). A site
   * this process knows learns it, and its next append within BURST_MS of `at` guesses the successor instead of reading
   * first: the head was the other process's a moment ago, as after an append of this one's own. A site never seen
   * here is left unknown (nothing is kept for every site whose events pass by). Like `learn`, `head` must exist or
   * have existed.
   */
  heard(siteId: string, head: T, at = this.now()): void {
    if (!this.heads.has(siteId)) return;
    this.learn(siteId, head);
    const known = this.heads.get(siteId);
    if (known && known.head.seq === head.seq) known.heardAt = Math.max(known.heardAt, at);
  }

  /** This process appended `head` (or learned it from its own append's head update). */
  appended(siteId: string, head: T): void {
    this.learn(siteId, head);
    const known = this.heads.get(siteId);
    if (known) known.appendedAt = this.now();
  }

  /** Another process had taken the seq this one guessed. */
  collided(siteId: string): void {
    const known = this.heads.get(siteId);
    if (known) known.contended = true;
  }

  /**
   * Whether an append should read the head before inserting rather than guess the cached head's successor: when
   * processes take turns on a site (an API server deciding, a worker executing), the first append of each turn
   * would have its guess refused, which costs a refused insert on top of the read. So on a contended site the first
   * append after a pause reads; the rest of its burst guesses, as does an append just after another process's was
   * heard of. Whatever is tried is the successor of the cached head or of a later one read, so the choice changes the
   * round trips, never the seq an append can get.
   */
  readFirst(siteId: string): boolean {
    const known = this.heads.get(siteId);
    return known?.contended === true && this.now() - Math.max(known.appendedAt, known.heardAt) > BURST_MS;
  }

  /** A head read before an append: one that has not moved past the cached head shows the site quiet again. */
  sawHead(siteId: string, seq: number): void {
    const known = this.heads.get(siteId);
    if (known && seq <= known.head.seq) known.contended = false;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}

/** One cache per model, i.e. per connection: the stores are built per request. */
const cachesByModel = new WeakMap<object, CachedHeads<Head>>();
export function cachedHeadsFor<T extends Head>(model: object): CachedHeads<T> {
  let heads = cachesByModel.get(model);
  if (!heads) {
    heads = new CachedHeads();
    cachesByModel.set(model, heads);
  }
  return heads as CachedHeads<T>;
}

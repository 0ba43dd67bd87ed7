// Appends owed events to one site's log with gap-free seqs, and reads them back for replay.
import type { SiteEvent, SiteEventBody } from '@lumibase/shared';
import { Types } from 'mongoose';
import { SiteScopedStore } from './site-scoped.js';
import { cachedHeadsFor, type Head } from './cached-head.js';
import { isDuplicateKeyError } from './duplicate-key.js';
import type { SiteEventDocument, SiteEventHeadDocument, SiteEventModels } from './models/site-event.model.js';

export interface OwedEvent {
  eventId: string;
  event: SiteEventBody;
}

/** The site's head as an append's own head update left it (site-event.model.ts). */
export interface SiteHead {
  seq: number;
  webhooksGeneration: number;
}

export interface AppendedEvent {
  event: SiteEvent;
  /** Absent when this append did not move the head: the event was in the log already, or the head update failed. */
  head?: SiteHead;
}

const MAX_APPEND_ATTEMPTS = 10_000;

/**
 * What this process knows of each site's latest seq, without building a store (no site id is parsed, nothing read):
 * `heard`, another process appended `seq` at `at` (its event reached this process's sockets, or the job it queued
 * named it), so this process's next append guesses its successor rather than reading the head first
 * (CachedHeads.heard: a site never appended to here, whatever its id, is left unknown); `knownSeq`, the latest seq
 * appended here or heard of. Only ever hear a seq that was appended.
 */
export interface KnownHeads {
  heard(siteId: string, seq: number, at?: number): void;
  knownSeq(siteId: string): number | undefined;
}

export function knownHeads(models: Pick<SiteEventModels, 'SiteEvent'>): KnownHeads {
  const heads = cachedHeadsFor<Head>(models.SiteEvent);
  return {
    heard: (siteId, seq, at) => heads.heard(siteId, { seq }, at),
    knownSeq: (siteId) => heads.get(siteId)?.seq,
  };
}

function isEventIdConflict(error: unknown): boolean {
  const keyPattern = (error as { keyPattern?: Record<string, unknown> }).keyPattern;
  // Without a keyPattern we cannot tell which index refused: look the event up to be sure.
  return keyPattern === undefined || 'eventId' in keyPattern;
}

/**
 * Appends of one site wait for each other inside a process, so the unique-index race is only ever
 * run between processes (a handful of contenders) instead of between every concurrent caller.
 */
export class AppendQueues {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(siteId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(siteId) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => {});
    this.tails.set(siteId, tail);
    void tail.then(() => {
      if (this.tails.get(siteId) === tail) this.tails.delete(siteId);
    });
    return result;
  }
}

/** Stores are built per request; the queues belong to the models, i.e. to the process's connection. */
const queuesByModels = new WeakMap<object, AppendQueues>();
export function queuesFor(models: object): AppendQueues {
  let queues = queuesByModels.get(models);
  if (!queues) {
    queues = new AppendQueues();
    queuesByModels.set(models, queues);
  }
  return queues;
}

export class EventLogStore extends SiteScopedStore {
  private readonly queues: AppendQueues;

  constructor(
    private readonly models: SiteEventModels,
    siteId: string,
    queues?: AppendQueues,
  ) {
    super(siteId);
    this.queues = queues ?? queuesFor(models);
  }

  /**
   * Appends `owed` as `last + 1`, `last` being the seq this process last appended or saw for the site (read from
   * the log and its head only when unknown). When another appender took that seq (E11000 on the seq index) the
   * head is read, and its successor tried. An event already in the log (E11000 on its eventId) is returned
   * as it is: relaying is idempotent.
   */
  async append(owed: OwedEvent): Promise<SiteEvent> {
    return (await this.appendWithHead(owed)).event;
  }

  /**
   * As `append`, with the head its head update returned (what the outbox relay hands its subscribers). `inserted`
   * is called with the event as soon as its insert was acknowledged (durable, at its seq), before the head update:
   * what only needs the event in the log (sockets) need not wait for the head. Not called for an event that was in
   * the log already. Appends of a site run one at a time in a process, so calls come in seq order.
   */
  appendWithHead(owed: OwedEvent, inserted?: (event: SiteEvent) => void): Promise<AppendedEvent> {
    return this.queues.run(this.siteId, () => this.appendNow(owed, inserted));
  }

  /**
   * Moves the site's webhooks generation, after a webhook was created or removed: every append whose head update
   * returns the new generation comes after this, hence after the change (see webhooks-subscriber.ts).
   */
  async webhooksChanged(): Promise<void> {
    const update = () =>
      this.models.SiteEventHead.updateOne(this.scoped({}), { $inc: { webhooksGeneration: 1 }, $max: { seq: 0 } }, { upsert: true });
    // Two first upserts of a site at once: one inserts, the other's retry updates.
    await update().catch((error: unknown) => {
      if (!isDuplicateKeyError(error)) throw error;
      return update();
    });
  }

  /*
   * Gap-free: every seq tried is the successor of one known to exist or to have existed — the cached one was
   * appended or seen here, and the one after a collision exists (it collided). A successor that exists already
   * collides in turn, so no seq is used twice while it is retained.
   *
   * The one way a successor could be free although later seqs were taken is that it expired: the log's TTL removed
   * it, and possibly everything after it. Inserting there would number a new event below ones already sent. It
   * cannot happen with a seq learned within HEAD_TRUST_MS: the successor of a seq that was the latest when learned
   * was appended after that moment, so it is younger than the retention (a day at least) for a long while yet; a
   * cache entry older than that is not trusted, and the append reads the head first, as every collision does. The
   * head, unlike the entries, survives the TTL, so a stale cache meeting a fully expired log still starts after the
   * highest seq ever allocated, never at an expired one.
   */
  private async appendNow(owed: OwedEvent, inserted?: (event: SiteEvent) => void): Promise<AppendedEvent> {
    const heads = cachedHeadsFor<Head>(this.models.SiteEvent);
    const cached = heads.get(this.siteId);
    // On a site other processes append to as well, the head is read first (see CachedHeads.readFirst): the cached
    // seq is trusted, so the later of it and the head read is a seq that exists or existed, as after a collision.
    const readFirst = cached !== undefined && heads.readFirst(this.siteId);
    let seq: number;
    if (!cached) seq = (await this.currentSeq()) + 1;
    else if (readFirst) {
      const headSeq = await this.headSeq();
      heads.sawHead(this.siteId, headSeq);
      seq = Math.max(cached.seq, headSeq) + 1;
    } else seq = cached.seq + 1;
    for (let attempt = 0; attempt < MAX_APPEND_ATTEMPTS; attempt++) {
      try {
        const document: SiteEventDocument = this.owned({
          _id: new Types.ObjectId(),
          seq,
          eventId: owed.eventId,
          name: owed.event.name,
          body: JSON.stringify(owed.event.body),
          createdAt: new Date(),
        });
        // The driver's insert: every field is set here, typed, and the indexes are the checks that matter.
        await this.models.SiteEvent.collection.insertOne(document);
        // The seq is taken: what this process knows of the site (knownSeq) includes it before the head update.
        heads.appended(this.siteId, { seq });
        const event = this.toEvent(document);
        inserted?.(event);
        const head = await this.advanceHead(seq);
        heads.appended(this.siteId, { seq: Math.max(seq, head?.seq ?? 0) });
        return head ? { event, head: { seq: head.seq, webhooksGeneration: head.webhooksGeneration ?? 0 } } : { event };
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        if (isEventIdConflict(error)) {
          const existing = await this.models.SiteEvent.findOne(this.scoped({ eventId: owed.eventId })).lean();
          if (existing) return { event: this.toEvent(existing) };
        }
        // The seq collided, so it exists: its successor leaves no gap even if the read finds less (an expiry since).
        // Another process appended meanwhile, and its head update follows its insert at once: the head alone is read
        // first (one round trip); only if that collides too are the entries read as well (a head update that failed).
        heads.collided(this.siteId);
        const known = attempt === 0 && !readFirst ? await this.headSeq() : await this.currentSeq();
        seq = Math.max(seq, known) + 1;
      }
    }
    throw new Error(`could not allocate a seq for site ${this.siteId} after ${MAX_APPEND_ATTEMPTS} attempts`);
  }

  /**
   * Moves the head to `seq` unless it is past it already, and returns it as it is now: the site's latest seq as far
   * as anyone has recorded. Undefined when the update failed: the head only guards against a fully expired log, and
   * the event itself already holds this seq.
   */
  private async advanceHead(seq: number): Promise<SiteEventHeadDocument | undefined> {
    try {
      const head = await this.models.SiteEventHead.findOneAndUpdate(
        this.scoped({}),
        { $max: { seq } },
        { upsert: true, returnDocument: 'after', projection: { seq: 1, webhooksGeneration: 1 } },
      ).lean<SiteEventHeadDocument>();
      return head ?? undefined;
    } catch {
      return undefined;
    }
  }

  private async headSeq(): Promise<number> {
    const head = await this.models.SiteEventHead.findOne(this.scoped({}), { seq: 1 }).lean();
    return head?.seq ?? 0;
  }

  /** The site's latest seq (0 before its first event). */
  async currentSeq(): Promise<number> {
    const [last, head] = await Promise.all([
      this.models.SiteEvent.findOne(this.scoped({}), { seq: 1 }).sort({ seq: -1 }).lean(),
      this.models.SiteEventHead.findOne(this.scoped({}), { seq: 1 }).lean(),
    ]);
    const seq = Math.max(last?.seq ?? 0, head?.seq ?? 0);
    cachedHeadsFor<Head>(this.models.SiteEvent).learn(this.siteId, { seq });
    return seq;
  }

  /** The oldest seq still retained, or undefined when the log holds nothing. */
  async oldestRetainedSeq(): Promise<number | undefined> {
    const first = await this.models.SiteEvent.findOne(this.scoped({}), { seq: 1 }).sort({ seq: 1 }).lean();
    return first?.seq;
  }

  /** Events with `after < seq <= upTo`, in seq order; at most `limit` of them (the first ones) when given. */
  async listAfter(after: number, upTo = Number.MAX_SAFE_INTEGER, limit?: number): Promise<SiteEvent[]> {
    const query = this.models.SiteEvent.find(this.scoped({ seq: { $gt: after, $lte: upTo } })).sort({ seq: 1 });
    if (limit !== undefined) query.limit(limit);
    const documents = await query.lean();
    return documents.map((document) => this.toEvent(document));
  }

  private toEvent(document: Pick<SiteEventDocument, 'seq' | 'name' | 'body'>): SiteEvent {
    const payload = { ...(JSON.parse(document.body) as object), seq: document.seq, siteId: this.siteId };
    return { name: document.name, payload } as SiteEvent;
  }
}

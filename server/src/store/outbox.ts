// The transactional outbox without transactions: a change and the event it owes are one document write;
// the relay later appends owed events to the site's log, publishes them, and clears them.
import { randomUUID } from 'node:crypto';
import { SITE_EVENT_NAMES, type SiteEvent, type SiteEventBody } from '@lumibase/shared';
import { type Model, Schema, type Types } from 'mongoose';
import type { Logger } from '../logger.js';
import type { EventLogStore, SiteHead } from './event-log.store.js';

export interface OutboxEntry {
  eventId: string;
  name: SiteEventBody['name'];
  /** JSON text: approval arguments may hold keys MongoDB refuses in documents. */
  body: string;
}

/** The schema fields every document that owes events carries. */
export const outboxFields = {
  outbox: {
    type: [new Schema({ eventId: String, name: { type: String, enum: SITE_EVENT_NAMES }, body: String }, { _id: false })],
    default: undefined,
  },
  /** A deleted record stays as a tombstone until the event its deletion owes is relayed. */
  deletedAt: { type: Date },
};

/** Filter for records that exist as far as readers are concerned. */
export const NOT_DELETED = { deletedAt: { $exists: false } } as const;

export function owe(event: SiteEventBody): OutboxEntry {
  return { eventId: randomUUID(), name: event.name, body: JSON.stringify(event.body) };
}

/** What the relay reads of a document that owes events. */
export interface OwingDocument {
  _id: Types.ObjectId;
  siteId: Types.ObjectId;
  outbox?: OutboxEntry[];
  deletedAt?: Date;
}

// biome-ignore lint/suspicious/noExplicitAny: the relay works over every model that carries outbox fields.
type OwingModel = Model<any>;

/**
 * Other work a model's documents may owe with a change (an item's revisions): `drain` does it before
 * the events are relayed; `owing` finds documents that still owe it, `settled` those that do not.
 */
export interface OwedWork {
  owing: Record<string, unknown>;
  settled: Record<string, unknown>;
  /**
   * `written`: the document as the caller's write left it, when the relay was handed it (see `relay`). Owed work is
   * only ever added by a write, and a write's own relay carries what it added: a written document that owes
   * nothing lets the drain skip reading.
   *
   * Answers the `$pull` clauses that clear what it finished (absent: nothing): the relay adds them to its own write
   * that clears the relayed events, so the document is written once for both. Until that write, the work stays
   * owed and a later pass does it again, which must land nothing twice.
   */
  drain(id: Types.ObjectId | string, written?: OwingDocument): Promise<Record<string, unknown> | undefined>;
}

export interface OutboxRelayOptions {
  eventLog: (siteId: string) => EventLogStore;
  publish: (event: SiteEvent) => void;
  logger: Logger;
  /**
   * Runs once an event has its seq and before it is cleared from its document (webhooks queue their
   * deliveries here). A failure leaves the event owed: the retry must be idempotent by `eventId`. `head`: the
   * site's head as the append left it (absent when the event was in the log already).
   */
  onAppended?: (event: SiteEvent, eventId: string, head?: SiteHead) => Promise<void>;
}

/** How much of a relay its caller waits for. */
export interface RelayOptions {
  /**
   * When the caller goes on; absent: once all of it is done (events appended, handed to subscribers, cleared).
   * - `work-done`: once the owed work (an item's revisions) is done; the events are appended, published and cleared
   *   after it answered.
   * - `events-inserted`: once the owed work is done and every event the document owes is in the log at its seq (and
   *   published), so whatever the caller appends next is numbered after them; the head update, the subscribers and
   *   the clearing follow.
   *
   * Either way the events are durable already (owed in the document the caller wrote); until they are cleared, a
   * later relay of the same document or the reconciler's `relayAll` relays them again, idempotently.
   */
  answerWhen?: 'work-done' | 'events-inserted';
}

/** A promise and its resolve (Promise.withResolvers is Node 22). */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

export class OutboxRelay {
  private readonly models = new Set<OwingModel>();
  private readonly work = new Map<OwingModel, OwedWork>();
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(private readonly options: OutboxRelayOptions) {}

  /** Models whose leftovers `relayAll` looks for. */
  register(model: OwingModel, work?: OwedWork): void {
    this.models.add(model);
    if (work) this.work.set(model, work);
  }

  /**
   * Relays what one document owes, in order. Never throws: an event that could not be relayed now
   * stays owed on its document, and the reconciler's `relayAll` delivers it later.
   *
   * `written`: the document exactly as the caller's own write left it (the inserted document, or
   * findOneAndUpdate's `new: true` answer), which saves reading it back. It may be stale by the time the
   * relay runs: another relay (this process's previous one for the same document, the reconciler, another
   * process) may have relayed some of its entries already. That costs only no-ops: the append finds the
   * event by its eventId and returns the seq it has, subscribers are idempotent by eventId, sockets drop a
   * seq they sent, and pulling an entry already pulled changes nothing. What it cannot be is older than
   * an entry's write: an entry it lacks was owed by a later write, whose own relay call carries it.
   */
  async relay(model: OwingModel, id: Types.ObjectId | string, written?: OwingDocument, options: RelayOptions = {}): Promise<void> {
    const key = `${model.collection.name}:${String(id)}`;
    // One relay per document at a time in this process: they would only race each other.
    const previous = this.inFlight.get(key) ?? Promise.resolve();
    const workDone = signal();
    const eventsInserted = signal();
    const next = previous
      .then(() => this.relayNow(model, id, written, { workDone: workDone.resolve, eventsInserted: eventsInserted.resolve }))
      .catch((error: unknown) => {
        this.options.logger.warn(
          { err: error, collection: model.collection.name, id: String(id) },
          'event relay failed; the reconciler will retry',
        );
      })
      .finally(() => {
        workDone.resolve();
        eventsInserted.resolve();
      });
    this.inFlight.set(key, next);
    void next.then(() => {
      if (this.inFlight.get(key) === next) this.inFlight.delete(key);
    });
    const answered = { 'work-done': workDone.promise, 'events-inserted': eventsInserted.promise };
    await (options.answerWhen ? answered[options.answerWhen] : next);
  }

  /** Resolves once every relay this process has begun so far is over (shutdown, and tests that read what was relayed). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight.values()]);
  }

  /** Relays every owed event and finishes every tombstone left by a crash. Returns how many documents it visited. */
  async relayAll(): Promise<number> {
    let visited = 0;
    for (const model of this.models) {
      const work = this.work.get(model);
      const owing = await model
        .find({ $or: [{ 'outbox.0': { $exists: true } }, { deletedAt: { $exists: true } }, ...(work ? [work.owing] : [])] }, { _id: 1 })
        .lean<{ _id: Types.ObjectId }[]>();
      for (const { _id } of owing) {
        await this.relay(model, _id);
        visited++;
      }
    }
    return visited;
  }

  /**
   * `workDone`: called once the owed work is done; `eventsInserted`: once every owed event is in the log as well (the
   * points a caller relaying after it answered answers at).
   */
  private async relayNow(
    model: OwingModel,
    id: Types.ObjectId | string,
    written: OwingDocument | undefined,
    { workDone, eventsInserted }: { workDone: () => void; eventsInserted: () => void },
  ): Promise<void> {
    const document = written ?? (await model.findById(id, { siteId: 1, outbox: 1, deletedAt: 1 }).lean<OwingDocument>());
    if (!document) return;
    const work = this.work.get(model);
    const drained = (await work?.drain(document._id, written)) ?? {};
    workDone();
    const log = this.options.eventLog(document.siteId.toString());
    const relayed: string[] = [];
    const entries = document.outbox ?? [];
    if (entries.length === 0) eventsInserted();
    try {
      for (const [index, entry] of entries.entries()) {
        const last = index === entries.length - 1;
        // Sockets get the event as soon as its insert is acknowledged (the log they catch up from holds it), not
        // after the head update, the dispatch and the bookkeeping round trips below. A retry of this entry appends
        // nothing new and publishes the same seq again, which every socket's stream drops (seq ≤ the last it sent).
        let published = false;
        const { event, head } = await log.appendWithHead(
          { eventId: entry.eventId, event: { name: entry.name, body: JSON.parse(entry.body) } as SiteEventBody },
          (inserted) => {
            published = true;
            this.options.publish(inserted);
            if (last) eventsInserted();
          },
        );
        if (!published) this.options.publish(event);
        if (last) eventsInserted();
        await this.options.onAppended?.(event, entry.eventId, head);
        relayed.push(entry.eventId);
      }
    } finally {
      // One $pull for the document, of exactly the entries that went all the way (with the owed work the drain
      // finished): a failure midway leaves the failed entry and those after it owed. A crash before this line leaves
      // all of them owed; relaying them again is idempotent by eventId. Bookkeeping, not a change of the record:
      // updatedAt stays as the change left it.
      const pull = relayed.length > 0 ? { ...drained, outbox: { eventId: { $in: relayed } } } : drained;
      if (Object.keys(pull).length > 0) await model.updateOne({ _id: document._id }, { $pull: pull }, { timestamps: false });
    }
    if (document.deletedAt) {
      await model.deleteOne({
        _id: document._id,
        deletedAt: { $exists: true },
        $and: [{ $or: [{ outbox: { $size: 0 } }, { outbox: { $exists: false } }] }, ...(work ? [work.settled] : [])],
      });
    }
  }
}

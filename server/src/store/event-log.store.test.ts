import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { pastBurst, takeTurns } from '../../test-support/take-turns.js';
import { openWatchedConnection, type WatchedConnection } from '../../test-support/watched-connection.js';
import { HEAD_TRUST_MS } from './cached-head.js';
import { AppendQueues, EventLogStore, knownHeads } from './event-log.store.js';
import { registerSiteEventModels } from './models/site-event.model.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase('event_log');
  await registerSiteEventModels(database.connection).SiteEvent.syncIndexes();
});
afterAll(() => database.close());

const newSite = () => new Types.ObjectId().toString();
const itemCreated = (id: string) => ({
  name: 'content-changed' as const,
  body: { kind: 'item' as const, action: 'created' as const, collection: 'posts', id },
});

const appendSeq = async (store: EventLogStore, eventId: string) =>
  (await store.append({ eventId, event: itemCreated(eventId) })).payload.seq;

/** Two processes' logs of a new site, `a` over `watched`, once they took turns (takeTurns: seqs 1 to 6 taken). */
async function afterTurns(watched: WatchedConnection) {
  const siteId = newSite();
  const models = registerSiteEventModels(watched.connection);
  const a = new EventLogStore(models, siteId, new AppendQueues());
  const b = new EventLogStore(registerSiteEventModels(await database.connect()), siteId, new AppendQueues());
  await takeTurns({ a, b, watched, append: appendSeq, entries: 'site_events', heads: 'site_event_heads' });
  // What a's process knows of heads, as its sockets and jobs tell it.
  return { a, b, append: appendSeq, heads: knownHeads(models) };
}

describe('EventLogStore', () => {
  it('numbers a site’s first event 1 and each next one +1', async () => {
    const log = new EventLogStore(registerSiteEventModels(database.connection), newSite());
    expect(await log.currentSeq()).toBe(0);
    const first = await log.append({ eventId: 'a', event: itemCreated('1') });
    const second = await log.append({ eventId: 'b', event: itemCreated('2') });
    expect([first.payload.seq, second.payload.seq]).toEqual([1, 2]);
    expect(second.payload).toEqual({ seq: 2, siteId: log.siteId, kind: 'item', action: 'created', collection: 'posts', id: '2' });
  });

  it('numbers 200 events appended at once over three connections 1..200 with no gap and no duplicate', async () => {
    const siteId = newSite();
    // Three connections with their own append queues contend as three processes would.
    const logs = await Promise.all(
      Array.from(
        { length: 3 },
        async () => new EventLogStore(registerSiteEventModels(await database.connect()), siteId, new AppendQueues()),
      ),
    );
    const appended = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        logs[index % logs.length]!.append({ eventId: `e${index}`, event: itemCreated(String(index)) }),
      ),
    );
    const seqs = appended.map((event) => event.payload.seq).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
    const stored = await logs[0]!.listAfter(0);
    expect(stored.map((event) => event.payload.seq)).toEqual(seqs);
  });

  it('returns the stored event when the same owed event is relayed twice', async () => {
    const log = new EventLogStore(registerSiteEventModels(database.connection), newSite());
    const once = await log.append({ eventId: 'same', event: itemCreated('x') });
    const twice = await log.append({ eventId: 'same', event: itemCreated('x') });
    expect(twice).toEqual(once);
    expect(await log.currentSeq()).toBe(1);
  });

  it('keeps each site’s numbering and events to itself', async () => {
    const models = registerSiteEventModels(database.connection);
    const siteA = new EventLogStore(models, newSite());
    const siteB = new EventLogStore(models, newSite());
    await siteA.append({ eventId: '1', event: itemCreated('a') });
    await siteA.append({ eventId: '2', event: itemCreated('a') });
    const onlyB = await siteB.append({ eventId: '1', event: itemCreated('b') });
    expect(onlyB.payload.seq).toBe(1);
    expect((await siteB.listAfter(0)).map((event) => event.payload.siteId)).toEqual([siteB.siteId]);
  });

  it('keeps any approval arguments exactly, including keys MongoDB would refuse', async () => {
    const log = new EventLogStore(registerSiteEventModels(database.connection), newSite());
    const approval = { id: 'x', arguments: { $where: 'x', 'a.b': { '': [null, '🙂'] } } };
    const appended = await log.append({ eventId: 'weird', event: { name: 'approval-created', body: { approval } } as never });
    const [stored] = await log.listAfter(0);
    expect(stored).toEqual(appended);
    expect((stored!.payload as unknown as { approval: unknown }).approval).toEqual(approval);
  });

  it('keeps nothing of a site it never appended to when it hears of another process’s event there', async () => {
    const watched = await openWatchedConnection(database);
    try {
      const siteId = newSite();
      const models = registerSiteEventModels(watched.connection);
      const heads = knownHeads(models);
      const a = new EventLogStore(models, siteId, new AppendQueues());
      const b = new EventLogStore(registerSiteEventModels(await database.connect()), siteId, new AppendQueues());
      await b.append({ eventId: 'b1', event: itemCreated('b1') });
      heads.heard(siteId, (await b.append({ eventId: 'b2', event: itemCreated('b2') })).payload.seq);
      expect(heads.knownSeq(siteId)).toBeUndefined();
      // Nor of an id that names no site (an event that came over Redis malformed): nothing is parsed, nothing thrown.
      expect(() => heads.heard('not-a-site', 5)).not.toThrow();
      expect(heads.knownSeq('not-a-site')).toBeUndefined();
      watched.take();
      expect((await a.append({ eventId: 'a1', event: itemCreated('a1') })).payload.seq).toBe(3);
      expect(watched.take()).toEqual(['find site_events', 'find site_event_heads', 'insert site_events', 'findAndModify site_event_heads']);
    } finally {
      await watched.close();
    }
  });

  describe('when the process appended to the site before', () => {
    it('takes the next seq without reading the log or its head: one insert and one head update', async () => {
      const watched = await openWatchedConnection(database);
      try {
        const log = new EventLogStore(registerSiteEventModels(watched.connection), newSite(), new AppendQueues());
        await log.append({ eventId: 'first', event: itemCreated('1') });
        watched.take();
        const second = await log.append({ eventId: 'second', event: itemCreated('2') });
        expect(second.payload.seq).toBe(2);
        expect(watched.take()).toEqual(['insert site_events', 'findAndModify site_event_heads']);
      } finally {
        await watched.close();
      }
    });

    it('continues after another process’s events when that process appended meanwhile (its guess collides)', async () => {
      const siteId = newSite();
      const [a, b] = await Promise.all(
        [0, 1].map(async () => new EventLogStore(registerSiteEventModels(await database.connect()), siteId, new AppendQueues())),
      );
      const seqs: number[] = [];
      const append = async (log: EventLogStore, eventId: string) =>
        seqs.push((await log.append({ eventId, event: itemCreated(eventId) })).payload.seq);
      await append(a!, 'a1');
      for (const eventId of ['b1', 'b2', 'b3']) await append(b!, eventId);
      await append(a!, 'a2');
      await append(b!, 'b4');
      await append(a!, 'a3');
      expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect((await a!.listAfter(0)).map((event) => event.payload.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    });

    it('pays for another process’s appends with its refused guess and one read of the head', async () => {
      const watched = await openWatchedConnection(database);
      try {
        const siteId = newSite();
        const a = new EventLogStore(registerSiteEventModels(watched.connection), siteId, new AppendQueues());
        const b = new EventLogStore(registerSiteEventModels(await database.connect()), siteId, new AppendQueues());
        await a.append({ eventId: 'a1', event: itemCreated('a1') });
        await b.append({ eventId: 'b1', event: itemCreated('b1') });
        watched.take();
        expect((await a.append({ eventId: 'a2', event: itemCreated('a2') })).payload.seq).toBe(3);
        expect(watched.take()).toEqual([
          'insert site_events',
          'find site_event_heads',
          'insert site_events',
          'findAndModify site_event_heads',
        ]);
      } finally {
        await watched.close();
      }
    });

    it('when processes take turns, reads the head before the first append of each turn instead of guessing', async () => {
      const watched = await openWatchedConnection(database);
      try {
        const { a, b, append } = await afterTurns(watched);
        await append(b, 'b3');
        await pastBurst();
        expect(await append(a, 'a5')).toBe(8);
        expect(watched.take()).toEqual(['find site_event_heads', 'insert site_events', 'findAndModify site_event_heads']);
        // Nobody else appended since: the read shows it, and the next turn guesses again.
        await pastBurst();
        expect(await append(a, 'a6')).toBe(9);
        await pastBurst();
        watched.take();
        expect(await append(a, 'a7')).toBe(10);
        expect(watched.take()).toEqual(['insert site_events', 'findAndModify site_event_heads']);
        expect((await a.listAfter(0)).map((event) => event.payload.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      } finally {
        await watched.close();
      }
    });

    it('guesses right after hearing of another process’s append, and reads first when what it heard is old', async () => {
      const watched = await openWatchedConnection(database);
      try {
        const { a, b, append, heads } = await afterTurns(watched);
        // b's event reaches a (a socket server hears it, a worker's job names it): a's turn starts with its successor.
        const b3 = await append(b, 'b3');
        await pastBurst();
        heads.heard(a.siteId, b3);
        expect(heads.knownSeq(a.siteId)).toBe(7);
        watched.take();
        expect(await append(a, 'a5')).toBe(8);
        expect(watched.take()).toEqual(['insert site_events', 'findAndModify site_event_heads']);
        // Heard of long ago (a job that waited in the queue): the turn reads the head first, as without it.
        const b4 = await append(b, 'b4');
        await pastBurst();
        heads.heard(a.siteId, b4, Date.now() - 1_000);
        watched.take();
        expect(await append(a, 'a6')).toBe(10);
        expect(watched.take()).toEqual(['find site_event_heads', 'insert site_events', 'findAndModify site_event_heads']);
        // A seq behind what it knows changes nothing.
        heads.heard(a.siteId, 3);
        expect(heads.knownSeq(a.siteId)).toBe(10);
        expect((await a.listAfter(0)).map((event) => event.payload.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      } finally {
        await watched.close();
      }
    });

    it('continues after the head, not after what it knew, when the others’ later events expired since', async () => {
      const siteId = newSite();
      const [a, b] = await Promise.all(
        [0, 1].map(async () => new EventLogStore(registerSiteEventModels(await database.connect()), siteId, new AppendQueues())),
      );
      await a!.append({ eventId: 'a1', event: itemCreated('a1') });
      for (const eventId of ['b1', 'b2', 'b3', 'b4']) await b!.append({ eventId, event: itemCreated(eventId) });
      const events = database.connection.collection('site_events');
      // The TTL took 3..5 only (their createdAt may be older than 2's): a's guess, 2, collides and reads the head.
      await events.deleteMany({ siteId: new Types.ObjectId(siteId), seq: { $gte: 3 } });
      expect((await a!.append({ eventId: 'a2', event: itemCreated('a2') })).payload.seq).toBe(6);
      // Later the TTL took everything; what a knew is older than it trusts, so nothing collides and the head decides.
      await b!.append({ eventId: 'b5', event: itemCreated('b5') });
      await events.deleteMany({ siteId: new Types.ObjectId(siteId) });
      const later = Date.now() + HEAD_TRUST_MS + 1_000;
      vi.spyOn(Date, 'now').mockImplementation(() => later);
      try {
        expect((await a!.append({ eventId: 'a3', event: itemCreated('a3') })).payload.seq).toBe(8);
      } finally {
        vi.restoreAllMocks();
      }
    });
  });
});

// A process killed between a change and its event: the workers' reconciler relays what the change owes, once, gap-free.
import { randomUUID } from 'node:crypto';
import { type Db, MongoClient, ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { until, sleep } from '../support/poll.js';
import { stopAll } from '../support/processes.js';
import { connectSocket, connected, type TestSocket } from '../support/socket-client.js';

const RECONCILE_INTERVAL_MS = 1000;
const cluster = new Cluster({ env: { RECONCILE_INTERVAL_MS: String(RECONCILE_INTERVAL_MS) } });
let server: string;
let mongo: MongoClient;
let db: Db;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  await cluster.startMongo();
  server = await cluster.startServer();
  mongo = await MongoClient.connect(cluster.mongoUri);
  db = mongo.db(`cluster_${cluster.prefix}`);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await mongo?.close();
  await cluster.stop();
  await stopAll();
});

/** An outbox entry exactly as the item store writes it. */
function owedItemEvent(action: 'updated' | 'deleted', collection: string, id: string) {
  return { eventId: randomUUID(), name: 'content-changed', body: JSON.stringify({ kind: 'item', action, collection, id }) };
}

interface LoggedEvent {
  seq: number;
  eventId: string;
  name: string;
  body: string;
}

function siteLog(siteId: string): Promise<LoggedEvent[]> {
  return db
    .collection<LoggedEvent>('site_events')
    .find({ siteId: new ObjectId(siteId) }, { projection: { _id: 0, seq: 1, eventId: 1, name: 1, body: 1 } })
    .sort({ seq: 1 })
    .toArray();
}

/** Seq numbers 1..n, each once: nothing lost, nothing doubled, no gap. */
function expectGapFree(log: LoggedEvent[]): void {
  expect(log.map((event) => event.seq)).toEqual(log.map((_, index) => index + 1));
  expect(new Set(log.map((event) => event.eventId)).size).toBe(log.length);
}

const contentEvent = (seq: number, siteId: string, action: string, id: string) => ({
  name: 'content-changed',
  payload: { seq, siteId, kind: 'item', action, collection: 'notes', id },
});

describe('the reconciler', () => {
  describe('after a process died between a change and its event', () => {
    it('relays each owed event once, in a gap-free sequence, removes the tombstones, and a later pass adds nothing', async () => {
      const superadmin = await ApiClient.signIn(server, ADMIN_EMAIL, ADMIN_PASSWORD);
      const siteId = await superadmin.createSite('Relay crash');
      const admin = await superadmin.createMember(siteId, 'admin');
      await admin.expect(201, 'POST', '/collections', { siteId, body: { name: 'notes', fields: [{ name: 'title', type: 'string' }] } });
      const create = async (title: string) =>
        (await admin.expect<{ id: string }>(201, 'POST', '/items/notes', { siteId, body: { data: { title } } })).id;
      const [updated, deleted, deletedAfterAppend, untouched] = [
        await create('A'),
        await create('B'),
        await create('C'),
        await create('D'),
      ];
      const { meta } = (await admin.request('GET', '/ai/approvals', { siteId })).body as { meta: { seq: number } };
      const before = meta.seq;
      // The collection and four items, all relayed at once by the server that made them.
      expect(before).toBe(5);
      expectGapFree(await siteLog(siteId));

      const live = connectSocket(server, { token: admin.token, siteId, lastSeq: before });
      sockets.push(live);
      await connected(live);

      // What a process killed right after its write leaves behind: the change, and the event it owes, unrelayed.
      const items = db.collection('cms_items');
      const owedUpdate = owedItemEvent('updated', 'notes', updated);
      await items.updateOne(
        { _id: new ObjectId(updated) },
        { $set: { 'data.title': 'A, changed by a process that then died', updatedAt: new Date() }, $push: { outbox: owedUpdate } as never },
      );
      // A deletion: the item is a tombstone until its event is relayed.
      const owedDelete = owedItemEvent('deleted', 'notes', deleted);
      await items.updateOne({ _id: new ObjectId(deleted) }, { $set: { deletedAt: new Date() }, $push: { outbox: owedDelete } as never });
      // A deletion whose process died after appending the event to the log, before clearing it from the tombstone.
      const appendedDelete = owedItemEvent('deleted', 'notes', deletedAfterAppend);
      await items.updateOne(
        { _id: new ObjectId(deletedAfterAppend) },
        { $set: { deletedAt: new Date() }, $push: { outbox: appendedDelete } as never },
      );
      await db.collection('site_events').insertOne({
        siteId: new ObjectId(siteId),
        seq: before + 1,
        eventId: appendedDelete.eventId,
        name: appendedDelete.name,
        body: appendedDelete.body,
        createdAt: new Date(),
      });
      await db.collection('site_event_heads').updateOne({ siteId: new ObjectId(siteId) }, { $max: { seq: before + 1 } }, { upsert: true });

      // Until a reconciler runs, readers see the changes (the tombstones are hidden) but no event went out.
      const listed = await admin.expect<Array<{ id: string; data: { title: string } }>>(200, 'GET', '/items/notes', { siteId });
      expect(listed.map((item) => item.id).sort()).toEqual([updated, untouched].sort());
      await sleep(500);
      expect(live.events).toEqual([]);

      // Two workers start at once: both reconcilers race over the same leftovers.
      const relayStartedAt = Date.now();
      await Promise.all([cluster.startWorker(), cluster.startWorker()]);
      const workersUpAfterMs = Date.now() - relayStartedAt;
      const log = await until(
        () => siteLog(siteId),
        (events) => events.length >= before + 3,
        { what: 'the owed events to be in the log' },
      );
      await until(
        () => items.countDocuments({ _id: { $in: [new ObjectId(deleted), new ObjectId(deletedAfterAppend)] } }),
        (left) => left === 0,
        { what: 'the tombstones to be removed' },
      );
      await live.waitFor((event) => event.payload.seq === before + 3);
      const relayedAfterMs = Date.now() - relayStartedAt;

      expectGapFree(log);
      expect(log).toHaveLength(before + 3);
      const relayed = log.slice(before);
      expect(relayed.filter((event) => event.eventId === appendedDelete.eventId).map((event) => event.seq)).toEqual([before + 1]);
      expect(relayed.filter((event) => event.eventId === owedUpdate.eventId)).toHaveLength(1);
      expect(relayed.filter((event) => event.eventId === owedDelete.eventId)).toHaveLength(1);

      // The live client got exactly the missed events, in seq order, nothing twice.
      const expected = relayed.map((event) => {
        const body = JSON.parse(event.body) as { action: string; id: string };
        return contentEvent(event.seq, siteId, body.action, body.id);
      });
      expect(live.events).toEqual(expected);
      expect(live.events.map((event) => `${event.payload.action}:${event.payload.id}`).sort()).toEqual(
        [`updated:${updated}`, `deleted:${deleted}`, `deleted:${deletedAfterAppend}`].sort(),
      );
      // Nothing is owed any more.
      expect(await items.countDocuments({ siteId: new ObjectId(siteId), 'outbox.0': { $exists: true } })).toBe(0);
      expect(await items.countDocuments({ siteId: new ObjectId(siteId), deletedAt: { $exists: true } })).toBe(0);
      const after = await admin.expect<Array<{ id: string; data: { title: string } }>>(200, 'GET', '/items/notes', { siteId });
      expect(after.map((item) => item.id).sort()).toEqual([updated, untouched].sort());
      expect(after.find((item) => item.id === updated)?.data.title).toBe('A, changed by a process that then died');

      // Another pass (a restarted worker, and its periodic ones) appends nothing.
      await Promise.all(cluster.workers.map((worker) => worker.stop('SIGKILL')));
      const restarted = await cluster.startWorker();
      await sleep(3 * RECONCILE_INTERVAL_MS);
      expect(restarted.child.exitCode).toBeNull();
      expect(await siteLog(siteId)).toEqual(log);
      expect(live.events).toEqual(expected);

      // A client reconnecting from before the crash gets the same events replayed, once each.
      const replayed = connectSocket(server, { token: admin.token, siteId, lastSeq: before });
      sockets.push(replayed);
      await connected(replayed);
      await replayed.waitFor((event) => event.payload.seq === before + 3);
      await sleep(300);
      expect(replayed.events).toEqual(expected);

      console.info(
        `relay-crash: 3 leftovers relayed as seqs ${before + 1}..${before + 3} and delivered to the live client ${relayedAfterMs} ms ` +
          `after starting two workers (both up after ${workersUpAfterMs} ms); a restarted worker's passes over ${3 * RECONCILE_INTERVAL_MS} ms appended nothing`,
      );
    });
  });
});

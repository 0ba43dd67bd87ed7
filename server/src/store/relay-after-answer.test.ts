// An item write answers once the item and its revision are stored, not after its event's relay: the event follows,
// durable meanwhile in the item's outbox; a delete answers only once its tombstone is gone. A collection's creation and
// an approval's transition answer once their event is in the log at its seq: what the caller does next (queue the
// job, settle, append) comes after it, while the subscribers and the clearing follow.
import type { SiteEvent } from '@lumibase/shared';
import { Types } from 'mongoose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { startExecution } from '../approvals/approval-operations.js';
import { pendingApproval } from '../../test-support/ai-arbitraries.js';
import { AiStores } from './ai/ai-stores.js';
import { createEventLog, type EventLog } from './event-log.js';
import { OutboxRelay } from './outbox.js';
import { createStores, type Stores } from './stores.js';

let database: TestDatabase;
let stores: Stores;
let aiStores: AiStores;
let eventLog: EventLog;
const published: SiteEvent[] = [];
/** While set, every relayed event's subscribers wait for it: the relay is as slow as it can be. */
let held: Promise<void> | undefined;

beforeAll(async () => {
  database = await openTestDatabase('relay_after_answer');
  eventLog = await createEventLog(database.connection);
  const relay = new OutboxRelay({
    eventLog: eventLog.forSite,
    publish: (event) => published.push(event),
    logger: createLogger({ level: 'silent' }),
    onAppended: async () => held,
  });
  stores = await createStores(database.connection, { relay });
  aiStores = new AiStores(database.connection, relay);
  await aiStores.ensureIndexes();
});
afterAll(async () => database?.close());

function hold(): () => void {
  let release!: () => void;
  held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return () => {
    held = undefined;
    release();
  };
}

/** A new site with a `posts` collection. */
async function siteWithPosts() {
  const site = stores.forSite(new Types.ObjectId().toHexString());
  return { site, collection: await site.collections.create({ name: 'posts', fields: [] }) };
}

/** The outbox of each item, as stored. */
async function outboxesOf(ids: string[]): Promise<unknown[][]> {
  const documents = await database.connection
    .collection('cms_items')
    .find({ _id: { $in: ids.map((id) => new Types.ObjectId(id)) } })
    .toArray();
  return documents.map((document) => document.outbox ?? []);
}

it('answers an insert and an update with their revisions stored while their events are still being relayed; the events follow', async () => {
  const { site, collection } = await siteWithPosts();
  const existing = await site.items.insert(collection, { title: 'old' });
  await stores.relay.idle();
  const release = hold();
  const item = await site.items.insert(collection, { title: 'a' });
  const updated = await site.items.update(collection, existing.id, { set: { title: 'b' }, unset: [] });
  expect(updated?.revision).toBe(2);
  // Answered: the revisions are there to read, while the relays of both events are still held.
  expect((await site.revisions.list(collection.id, item.id)).map((revision) => revision.revision)).toEqual([1]);
  expect((await site.revisions.list(collection.id, existing.id)).map((revision) => revision.revision)).toEqual([2, 1]);
  expect((await outboxesOf([item.id, existing.id])).map((outbox) => outbox.length)).toEqual([1, 1]);
  release();
  await stores.relay.idle();
  expect(await outboxesOf([item.id, existing.id])).toEqual([[], []]);
  const changes = published.map((event) => event.payload as { id?: string; revision?: number });
  expect(changes.filter((change) => change.id === item.id).map((change) => change.revision)).toEqual([1]);
  expect(changes.filter((change) => change.id === existing.id).map((change) => change.revision)).toEqual([1, 2]);
});

it('answers a delete only once its tombstone is gone, so the item can be re-created under its id at once', async () => {
  const { site, collection } = await siteWithPosts();
  const item = await site.items.insert(collection, { title: 'a' });
  await stores.relay.idle();
  const release = hold();
  const deleting = site.items.delete(collection, item.id);
  let answered = false;
  void deleting.then(() => {
    answered = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(answered).toBe(false);
  release();
  expect(await deleting).toBe(true);
  expect(await database.connection.collection('cms_items').findOne({ _id: new Types.ObjectId(item.id) })).toBeNull();
  expect(
    await site.items.recreate(collection, item.id, { title: 'back' }, 3, { actor: { id: 'u-1', name: 'Ada' }, via: 'rest' }),
  ).toMatchObject({
    id: item.id,
    revision: 3,
  });
});

/** The outbox of one document of `collection`, as stored. */
async function outboxOf(collection: string, id: string): Promise<unknown[]> {
  const document = await database.connection.collection(collection).findOne({ _id: new Types.ObjectId(id) });
  return document?.outbox ?? [];
}

it('answers a collection’s creation once its event is in the log and published, its subscribers still held; they follow', async () => {
  const site = stores.forSite(new Types.ObjectId().toHexString());
  const release = hold();
  const collection = await site.collections.create({ name: 'posts', fields: [] });
  const created = { seq: 1, siteId: site.siteId, kind: 'collection', action: 'created', collection: 'posts' };
  expect((await eventLog.forSite(site.siteId).listAfter(0)).map((event) => event.payload)).toEqual([created]);
  expect(published.filter((event) => event.payload.siteId === site.siteId).map((event) => event.payload)).toEqual([created]);
  // Still owed until its subscribers are done: a crash now leaves it for the reconciler, relayed again by its eventId.
  expect(await outboxOf('cms_collections', collection.id)).toHaveLength(1);
  release();
  await stores.relay.idle();
  expect(await outboxOf('cms_collections', collection.id)).toEqual([]);
});

it('answers an approval’s transition once its event has its seq, so what the caller appends next is numbered after it', async () => {
  const { approvals } = aiStores.forSite(new Types.ObjectId().toHexString());
  const approval = await approvals.insert(pendingApproval({ skillName: 'createCollection', arguments: { name: 'posts' } }));
  await stores.relay.idle();
  const release = hold();
  const executing = await startExecution(approvals, approval, { actor: { id: 'u-bea', name: 'Bea' }, at: new Date() });
  expect(executing?.status).toBe('executing');
  const log = eventLog.forSite(approval.siteId);
  expect((await log.listAfter(0)).map((event) => [event.payload.seq, event.name])).toEqual([
    [1, 'approval-created'],
    [2, 'approval-decided'],
  ]);
  expect(eventLog.knownSeq(approval.siteId)).toBe(2);
  expect(await outboxOf('ai_approvals', approval.id)).toHaveLength(1);
  release();
  await stores.relay.idle();
  expect(await outboxOf('ai_approvals', approval.id)).toEqual([]);
});

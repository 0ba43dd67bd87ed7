// An item write answers once the item and its revision are stored, not after its event's relay: the event follows,
// durable meanwhile in the item's outbox; a delete answers only once its tombstone is gone.
import type { SiteEvent } from '@lumibase/shared';
import { Types } from 'mongoose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { createEventLog } from './event-log.js';
import { OutboxRelay } from './outbox.js';
import { createStores, type Stores } from './stores.js';

let database: TestDatabase;
let stores: Stores;
const published: SiteEvent[] = [];
/** While set, every relayed event's subscribers wait for it: the relay is as slow as it can be. */
let held: Promise<void> | undefined;

beforeAll(async () => {
  database = await openTestDatabase('relay_after_answer');
  const eventLog = await createEventLog(database.connection);
  const relay = new OutboxRelay({
    eventLog: eventLog.forSite,
    publish: (event) => published.push(event),
    logger: createLogger({ level: 'silent' }),
    onAppended: async () => held,
  });
  stores = await createStores(database.connection, { relay });
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

// No event is published before it is durable: at the moment the relay publishes, another connection (another
// process) already finds the event in the site's log at its seq, and the change that owed it in its document.
import type { SiteEvent } from '@lumibase/shared';
import { type Connection, Types } from 'mongoose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createEventLog } from './event-log.js';
import { OutboxRelay } from './outbox.js';
import { createStores } from './stores.js';

let database: TestDatabase;
let observer: Connection;

beforeAll(async () => {
  database = await openTestDatabase('outbox_durable');
  observer = await database.connect();
});
afterAll(async () => database?.close());

/** What another process reads at the moment `event` is published; a description of what is missing, or null. */
async function missingAtPublish(event: SiteEvent): Promise<string | null> {
  const { seq, siteId, ...body } = event.payload as unknown as {
    seq: number;
    siteId: string;
    kind: string;
    id?: string;
    revision?: number;
  };
  const site = new Types.ObjectId(siteId);
  const [logged, item] = await Promise.all([
    observer.collection('site_events').findOne({ siteId: site, seq }),
    body.kind === 'item' ? observer.collection('cms_items').findOne({ _id: new Types.ObjectId(body.id) }) : null,
  ]);
  if (!logged || logged.name !== event.name || typeof logged.eventId !== 'string' || logged.body !== JSON.stringify(body)) {
    return `seq ${seq} is not in the log as published (${JSON.stringify(body)})`;
  }
  if (body.kind === 'item' && !(item && (item.revision as number) >= (body.revision as number))) {
    return `item ${body.id} is not stored at revision ${body.revision} yet`;
  }
  return null;
}

/** A server process over its own connection whose relay checks every event it publishes. */
async function processOn(connection: Connection, checks: Promise<string | null>[], published: SiteEvent[]) {
  const eventLog = await createEventLog(connection);
  const relay = new OutboxRelay({
    eventLog: eventLog.forSite,
    publish: (event) => {
      checks.push(missingAtPublish(event));
      published.push(event);
    },
    logger: createLogger({ level: 'silent' }),
  });
  return createStores(connection, { relay });
}

it('publishes every event of concurrent writers in two processes only once it and its change are stored', async () => {
  const checks: Promise<string | null>[] = [];
  const published: SiteEvent[] = [];
  const processes = [await processOn(database.connection, checks, published), await processOn(await database.connect(), checks, published)];
  const siteId = new Types.ObjectId().toHexString();
  const collection = await processes[0]!.forSite(siteId).collections.create({ name: 'posts', fields: [] });
  const writers = Array.from({ length: 6 }, async (_, writer) => {
    const items = processes[writer % 2]!.forSite(siteId).items;
    const item = await items.insert(collection, { title: `w${writer}`, n: 0 });
    for (let n = 1; n <= 3; n++) await items.update(collection, item.id, { set: { n }, unset: [] });
  });
  await Promise.all(writers);
  // Item writes answer before their events are relayed: wait for both processes' relays.
  await Promise.all(processes.map((stores) => stores.relay.idle()));
  expect((await Promise.all(checks)).filter((missing) => missing !== null)).toEqual([]);
  // A retry may publish an event again (sockets drop the repeat); every one of the 25 changes is published.
  expect(new Set(published.map((event) => event.payload.seq))).toEqual(new Set(Array.from({ length: 1 + 6 * 4 }, (_, index) => index + 1)));
});

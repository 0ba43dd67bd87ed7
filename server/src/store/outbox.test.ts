// The outbox relay over the wire: an owed event reaches the sockets as soon as it has its seq, and the relay's
// later steps failing (webhook or embedding dispatch) neither withholds it nor gives it a second seq on retry.
import type { SiteEvent } from '@lumibase/shared';
import { Schema, Types } from 'mongoose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { createEventLog, type EventLog } from './event-log.js';
import { OutboxRelay, outboxFields, owe } from './outbox.js';

let database: TestDatabase;
let eventLog: EventLog;

beforeAll(async () => {
  database = await openTestDatabase('outbox');
  eventLog = await createEventLog(database.connection);
});
afterAll(async () => database?.close());

it('publishes an appended event before dispatching it; a failed dispatch leaves it owed, and the retry publishes the same seq once more', async () => {
  const Owing = database.connection.model('OutboxTestRecord', new Schema({ siteId: Schema.Types.ObjectId, ...outboxFields }));
  const siteId = new Types.ObjectId();
  const published: SiteEvent[] = [];
  let dispatchFails = true;
  const steps: string[] = [];
  const relay = new OutboxRelay({
    eventLog: eventLog.forSite,
    publish: (event) => {
      steps.push('publish');
      published.push(event);
    },
    logger: createLogger({ level: 'silent' }),
    onAppended: async () => {
      steps.push('dispatch');
      if (dispatchFails) throw new Error('Redis is down');
    },
  });
  const body = { kind: 'item', action: 'created', collection: 'posts', id: 'x', revision: 1 } as const;
  const record = await Owing.create({ siteId, outbox: [owe({ name: 'content-changed', body })] });

  await relay.relay(Owing, record._id);
  expect(steps).toEqual(['publish', 'dispatch']);
  expect(published.map((event) => event.payload.seq)).toEqual([1]);
  expect((await Owing.findById(record._id).lean())?.outbox).toHaveLength(1);

  dispatchFails = false;
  await relay.relay(Owing, record._id);
  expect(published.map((event) => event.payload.seq)).toEqual([1, 1]);
  expect(published[1]).toEqual(published[0]);
  expect((await Owing.findById(record._id).lean())?.outbox).toEqual([]);
  expect(await eventLog.forSite(siteId.toString()).listAfter(0)).toEqual([published[0]]);
});

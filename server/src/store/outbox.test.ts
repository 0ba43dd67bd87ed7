// The outbox relay over the wire: an owed event reaches the sockets as soon as it has its seq, and the relay's
// later steps failing (webhook or embedding dispatch) neither withholds it nor gives it a second seq on retry.
import type { SiteEvent } from '@lumibase/shared';
import { Schema, Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { openWatchedConnection } from '../../test-support/watched-connection.js';
import { createEventLog, type EventLog } from './event-log.js';
import { OutboxRelay, type OwingDocument, outboxFields, owe } from './outbox.js';

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

describe('when the writer hands the relay the document it wrote', () => {
  const body = (id: string) => ({ kind: 'item', action: 'created', collection: 'posts', id, revision: 1 }) as const;

  it('relays it without reading it back', async () => {
    const watched = await openWatchedConnection(database);
    try {
      const Owing = watched.connection.model('OutboxWrittenRecord', new Schema({ siteId: Schema.Types.ObjectId, ...outboxFields }));
      const published: SiteEvent[] = [];
      const relay = new OutboxRelay({
        eventLog: (await createEventLog(watched.connection)).forSite,
        publish: (event) => published.push(event),
        logger: createLogger({ level: 'silent' }),
      });
      const written: OwingDocument = {
        _id: new Types.ObjectId(),
        siteId: new Types.ObjectId(),
        outbox: [owe({ name: 'content-changed', body: body('a') })],
      };
      await Owing.insertMany([written], { lean: true });
      watched.take();
      await relay.relay(Owing, written._id, written);
      // On the document itself, the relay only clears what it relayed.
      expect(watched.take().filter((command) => command.endsWith(' outboxwrittenrecords'))).toEqual(['update outboxwrittenrecords']);
      expect(published.map((event) => event.payload.seq)).toEqual([1]);
      expect((await Owing.findById(written._id).lean())?.outbox).toEqual([]);
    } finally {
      await watched.close();
    }
  });

  it('finds entries another relay took already in the log: the same seq, no second event, nothing left owed', async () => {
    const Owing = database.connection.model('OutboxStaleRecord', new Schema({ siteId: Schema.Types.ObjectId, ...outboxFields }));
    const published: SiteEvent[] = [];
    const relay = new OutboxRelay({
      eventLog: eventLog.forSite,
      publish: (event) => published.push(event),
      logger: createLogger({ level: 'silent' }),
    });
    const siteId = new Types.ObjectId();
    const written: OwingDocument = { _id: new Types.ObjectId(), siteId, outbox: [owe({ name: 'content-changed', body: body('b') })] };
    await Owing.insertMany([written], { lean: true });
    // The reconciler got there first: it read the document itself and relayed everything.
    await relay.relay(Owing, written._id);
    await Owing.updateOne({ _id: written._id }, { $push: { outbox: owe({ name: 'content-changed', body: body('c') }) } });
    await relay.relay(Owing, written._id, written);
    expect(published.map((event) => event.payload.seq)).toEqual([1, 1]);
    expect((await eventLog.forSite(siteId.toString()).listAfter(0)).map((event) => event.payload.seq)).toEqual([1]);
    // What a later write owes is its own relay's: the stale document neither relays nor clears it.
    expect((await Owing.findById(written._id).lean())?.outbox).toHaveLength(1);
  });
});

describe('when a document owes several events', () => {
  const body = (id: string) => ({ kind: 'item', action: 'updated', collection: 'posts', id, revision: 2 }) as const;

  it('clears them with one write once all are relayed', async () => {
    const watched = await openWatchedConnection(database);
    try {
      const Owing = watched.connection.model('OutboxManyRecord', new Schema({ siteId: Schema.Types.ObjectId, ...outboxFields }));
      const relay = new OutboxRelay({
        eventLog: (await createEventLog(watched.connection)).forSite,
        publish: () => {},
        logger: createLogger({ level: 'silent' }),
      });
      const written: OwingDocument = {
        _id: new Types.ObjectId(),
        siteId: new Types.ObjectId(),
        outbox: ['a', 'b', 'c'].map((id) => owe({ name: 'content-changed', body: body(id) })),
      };
      await Owing.insertMany([written], { lean: true });
      watched.take();
      await relay.relay(Owing, written._id, written);
      expect(watched.take().filter((command) => command.endsWith(' outboxmanyrecords'))).toEqual(['update outboxmanyrecords']);
      expect((await Owing.findById(written._id).lean())?.outbox).toEqual([]);
    } finally {
      await watched.close();
    }
  });

  it('leaves owed the one whose dispatch failed and those after it, and the retry relays them after the first, in order', async () => {
    const Owing = database.connection.model('OutboxMidwayRecord', new Schema({ siteId: Schema.Types.ObjectId, ...outboxFields }));
    const published: SiteEvent[] = [];
    let failOn: string | undefined = 'b';
    const relay = new OutboxRelay({
      eventLog: eventLog.forSite,
      publish: (event) => published.push(event),
      logger: createLogger({ level: 'silent' }),
      onAppended: async (event) => {
        if ((event.payload as { id?: string }).id === failOn) throw new Error('Redis is down');
      },
    });
    const siteId = new Types.ObjectId();
    const outbox = ['a', 'b', 'c'].map((id) => owe({ name: 'content-changed', body: body(id) }));
    const record = await Owing.create({ siteId, outbox });

    await relay.relay(Owing, record._id);
    expect((await Owing.findById(record._id).lean())?.outbox?.map((entry) => entry.eventId)).toEqual([
      outbox[1]!.eventId,
      outbox[2]!.eventId,
    ]);

    failOn = undefined;
    await relay.relay(Owing, record._id);
    expect((await Owing.findById(record._id).lean())?.outbox).toEqual([]);
    const logged = await eventLog.forSite(siteId.toString()).listAfter(0);
    expect(logged.map((event) => [event.payload.seq, (event.payload as { id?: string }).id])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ]);
  });
});

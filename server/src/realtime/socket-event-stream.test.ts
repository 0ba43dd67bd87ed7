import type { SiteEvent } from '@lumibase/shared';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { EventLogStore } from '../store/event-log.store.js';
import { registerSiteEventModels, type SiteEventModels } from '../store/models/site-event.model.js';
import { SocketEventStream } from './socket-event-stream.js';

let database: TestDatabase;
let models: SiteEventModels;
beforeAll(async () => {
  database = await openTestDatabase('event_stream');
  models = registerSiteEventModels(database.connection);
  await models.SiteEvent.syncIndexes();
});
afterAll(() => database.close());

const logger = createLogger({ level: 'silent' });
/** REPLAY_MAX_EVENTS' default; the tests of the limit set their own. */
const LIMITS = { maxEvents: 1000 };

async function siteWithEvents(count: number) {
  const log = new EventLogStore(models, new Types.ObjectId().toString());
  const events: SiteEvent[] = [];
  for (let index = 1; index <= count; index++) events.push(await append(log, index));
  return { log, events };
}

function append(log: EventLogStore, index: number) {
  return log.append({
    eventId: `event-${index}`,
    event: { name: 'content-changed', body: { kind: 'item', action: 'created', collection: 'posts', id: String(index) } },
  });
}

function recordingSink() {
  const received: Array<{ name: string; seq: number }> = [];
  return {
    received,
    seqs: () => received.filter((entry) => entry.name !== 'resync-required').map((entry) => entry.seq),
    emit: (name: string, payload: { seq: number }) => {
      received.push({ name, seq: payload.seq });
      return true;
    },
  };
}

describe('SocketEventStream', () => {
  it('replays exactly the events after lastSeq in order, then live ones', async () => {
    const { log } = await siteWithEvents(5);
    const sink = recordingSink();
    const stream = new SocketEventStream(sink, log, logger, LIMITS);
    await stream.start(2);
    expect(sink.seqs()).toEqual([3, 4, 5]);
    await stream.deliver(await append(log, 6));
    expect(sink.seqs()).toEqual([3, 4, 5, 6]);
  });

  it('sends a live event that arrives during the replay once, after the replayed ones', async () => {
    const { log } = await siteWithEvents(3);
    const sink = recordingSink();
    const stream = new SocketEventStream(sink, log, logger, LIMITS);
    const live = append(log, 4);
    const replay = stream.start(0);
    const delivered = stream.deliver(await live);
    await Promise.all([replay, delivered]);
    expect(sink.seqs()).toEqual([1, 2, 3, 4]);
  });

  it('fills a gap from the log when a later event is published before an earlier one, and drops the late duplicate', async () => {
    const { log, events } = await siteWithEvents(2);
    const sink = recordingSink();
    const stream = new SocketEventStream(sink, log, logger, LIMITS);
    await stream.start(undefined);
    const third = await append(log, 3);
    const fourth = await append(log, 4);
    await stream.deliver(fourth);
    await stream.deliver(third);
    await stream.deliver(events[1]!);
    expect(sink.seqs()).toEqual([3, 4]);
  });

  it('without lastSeq sends only what happens after the connection', async () => {
    const { log } = await siteWithEvents(3);
    const sink = recordingSink();
    const stream = new SocketEventStream(sink, log, logger, LIMITS);
    await stream.start(undefined);
    await stream.deliver(await append(log, 4));
    expect(sink.seqs()).toEqual([4]);
  });

  it('asks for a resync when lastSeq is ahead of the site', async () => {
    const { log } = await siteWithEvents(2);
    const sink = recordingSink();
    await new SocketEventStream(sink, log, logger, LIMITS).start(7);
    expect(sink.received).toEqual([{ name: 'resync-required', seq: 2 }]);
  });

  it('asks for a resync when the events after lastSeq are past retention', async () => {
    const { log } = await siteWithEvents(4);
    await models.SiteEvent.deleteMany({ siteId: new Types.ObjectId(log.siteId), seq: { $lte: 2 } });
    const sink = recordingSink();
    const stream = new SocketEventStream(sink, log, logger, LIMITS);
    await stream.start(1);
    expect(sink.received).toEqual([{ name: 'resync-required', seq: 4 }]);
    await stream.deliver(await append(log, 5));
    expect(sink.seqs()).toEqual([5]);
  });

  it('replays at most maxEvents, reading the log a page at a time; a socket further behind is asked to resync', async () => {
    const { log } = await siteWithEvents(7);
    const pages: Array<number | undefined> = [];
    const listAfter = log.listAfter.bind(log);
    // Observes the reads (the real store answers them): no read may ask for more than a page.
    log.listAfter = (after, upTo, limit) => {
      pages.push(limit);
      return listAfter(after, upTo, limit);
    };
    const behind = recordingSink();
    await new SocketEventStream(behind, log, logger, { maxEvents: 5, pageSize: 2 }).start(0);
    expect(behind.received).toEqual([{ name: 'resync-required', seq: 7 }]);
    expect(pages).toEqual([]);

    const close = recordingSink();
    const stream = new SocketEventStream(close, log, logger, { maxEvents: 5, pageSize: 2 });
    await stream.start(2);
    expect(close.seqs()).toEqual([3, 4, 5, 6, 7]);
    expect(pages).toEqual([2, 2, 1]);
    await stream.deliver(await append(log, 8));
    expect(close.seqs()).toEqual([3, 4, 5, 6, 7, 8]);
  });

  it('asks for a resync when a live event is more than maxEvents ahead of the last one sent', async () => {
    const { log } = await siteWithEvents(1);
    const sink = recordingSink();
    const stream = new SocketEventStream(sink, log, logger, { maxEvents: 2 });
    await stream.start(undefined);
    for (let index = 2; index <= 4; index++) await append(log, index);
    await stream.deliver(await append(log, 5));
    expect(sink.received).toEqual([{ name: 'resync-required', seq: 5 }]);
    await stream.deliver(await append(log, 6));
    expect(sink.seqs()).toEqual([6]);
  });

  it('keeps numbering after every retained event expired', async () => {
    const { log } = await siteWithEvents(3);
    await models.SiteEvent.deleteMany({ siteId: new Types.ObjectId(log.siteId) });
    expect((await append(log, 4)).payload.seq).toBe(4);
  });
});

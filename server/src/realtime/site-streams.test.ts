// SiteStreams hands a live event to every caught-up socket of its site in one broadcast, and to each other socket
// through its own stream (a replay in progress, a gap to fill, a duplicate to drop), with the same order and no gap.
import type { SiteEvent } from '@lumibase/shared';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { EventLogStore } from '../store/event-log.store.js';
import { registerSiteEventModels, type SiteEventModels } from '../store/models/site-event.model.js';
import { openTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { SiteStreams } from './site-streams.js';
import { SocketEventStream } from './socket-event-stream.js';

let database: TestDatabase;
let models: SiteEventModels;
beforeAll(async () => {
  database = await openTestDatabase('site_streams');
  models = registerSiteEventModels(database.connection);
  await models.SiteEvent.syncIndexes();
});
afterAll(() => database.close());

const logger = createLogger({ level: 'silent' });
const LIMITS = { maxEvents: 1000 };

function append(log: EventLogStore, index: number): Promise<SiteEvent> {
  return log.append({
    eventId: `event-${index}`,
    event: { name: 'content-changed', body: { kind: 'item', action: 'created', collection: 'posts', id: String(index) } },
  });
}

/**
 * Sockets of one site: each socket's own emits and the broadcasts that name it, in the order they happened, and
 * the broadcasts as they were sent (one call naming several sockets).
 */
function siteSockets(log: EventLogStore) {
  const received = new Map<string, number[]>();
  const broadcasts: Array<{ socketIds: string[]; seq: number }> = [];
  const streams = new SiteStreams((socketIds, event) => {
    broadcasts.push({ socketIds: [...socketIds].sort(), seq: event.payload.seq });
    for (const id of socketIds) received.get(id)!.push(event.payload.seq);
  });
  const connect = (id: string) => {
    received.set(id, []);
    const sink = {
      emit: (_name: string, payload: { seq: number }) => {
        received.get(id)!.push(payload.seq);
        return true;
      },
    };
    const stream = new SocketEventStream(sink, log, logger, LIMITS);
    streams.add(log.siteId, stream, id);
    return stream;
  };
  return { streams, connect, received, broadcasts };
}

describe('SiteStreams', () => {
  it('sends a live event to every caught-up socket in one broadcast', async () => {
    const log = new EventLogStore(models, new Types.ObjectId().toString());
    const site = siteSockets(log);
    await Promise.all(['a', 'b', 'c'].map((id) => site.connect(id).start(undefined)));
    for (let index = 1; index <= 3; index++) site.streams.deliver(await append(log, index));
    expect(site.broadcasts).toEqual([1, 2, 3].map((seq) => ({ socketIds: ['a', 'b', 'c'], seq })));
    for (const id of ['a', 'b', 'c']) expect(site.received.get(id)).toEqual([1, 2, 3]);
  });

  it('lets a socket still replaying take the event after its replay, once, while the others get it at once', async () => {
    const log = new EventLogStore(models, new Types.ObjectId().toString());
    for (let index = 1; index <= 3; index++) await append(log, index);
    const site = siteSockets(log);
    await site.connect('live').start(undefined);
    const replaying = site.connect('replaying');
    const replay = replaying.start(0);
    const fourth = await append(log, 4);
    site.streams.deliver(fourth);
    expect(site.broadcasts).toEqual([{ socketIds: ['live'], seq: 4 }]);
    await replay;
    await replaying.deliver(fourth);
    expect(site.received.get('replaying')).toEqual([1, 2, 3, 4]);
    expect(site.received.get('live')).toEqual([4]);

    // Caught up now: the next event reaches both in one broadcast.
    site.streams.deliver(await append(log, 5));
    expect(site.broadcasts.at(-1)).toEqual({ socketIds: ['live', 'replaying'], seq: 5 });
    expect(site.received.get('replaying')).toEqual([1, 2, 3, 4, 5]);
  });

  it('fills a gap through the stream when events arrive out of order, and never sends a seq twice', async () => {
    const log = new EventLogStore(models, new Types.ObjectId().toString());
    const site = siteSockets(log);
    const stream = site.connect('a');
    await stream.start(undefined);
    const first = await append(log, 1);
    const second = await append(log, 2);
    const third = await append(log, 3);
    site.streams.deliver(second);
    // Not the next seq: no broadcast; the stream reads the gap from the log.
    expect(site.broadcasts).toEqual([]);
    await stream.deliver(second);
    site.streams.deliver(first);
    await stream.deliver(first);
    site.streams.deliver(third);
    expect(site.broadcasts).toEqual([{ socketIds: ['a'], seq: 3 }]);
    expect(site.received.get('a')).toEqual([1, 2, 3]);
  });

  it('leaves out a socket that has gone and a site without sockets', async () => {
    const log = new EventLogStore(models, new Types.ObjectId().toString());
    const site = siteSockets(log);
    await site.connect('stays').start(undefined);
    const goes = new SocketEventStream({ emit: () => true }, log, logger, LIMITS);
    const remove = site.streams.add(log.siteId, goes, 'goes');
    await goes.start(undefined);
    remove();
    site.streams.deliver(await append(log, 1));
    expect(site.broadcasts).toEqual([{ socketIds: ['stays'], seq: 1 }]);
    expect(site.streams.count()).toBe(1);

    const elsewhere = new EventLogStore(models, new Types.ObjectId().toString());
    site.streams.deliver(await append(elsewhere, 1));
    expect(site.broadcasts).toHaveLength(1);
  });
});

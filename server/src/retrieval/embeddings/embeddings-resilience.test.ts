// What Redis outages and rate-limited providers do to embeddings: an item write still succeeds and its job waits in
// the MongoDB backlog until Redis is back; a provider's 429s pause the queue and the job still completes.
import { randomBytes } from 'node:crypto';
import type { SiteEvent } from '@lumibase/shared';
import { Types } from 'mongoose';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import { startQueueWorker } from '../../infrastructure/queue-table.js';
import { CollectionsService } from '../../services/collections.service.js';
import { ItemsService } from '../../services/items.service.js';
import { EmbeddingBacklog } from '../../store/ai/embedding-backlog.store.js';
import { createEmbeddingModels, type EmbeddingModels } from '../../store/ai/embedding.model.js';
import { EmbeddingStore } from '../../store/ai/embedding.store.js';
import { createEventLog } from '../../store/event-log.js';
import { OutboxRelay } from '../../store/outbox.js';
import { createStores, type Stores } from '../../store/stores.js';
import { eventually } from '../../../test-support/eventually.js';
import { openTestDatabase, type TestDatabase } from '../../../test-support/test-database.js';
import { type Embedder, EmbeddingProviderError } from './embedder.js';
import { EmbeddingIndexer } from './embedding-indexer.js';
import { createEmbeddingsEnqueuer, type EmbeddingsEnqueuer } from './embeddings-dispatcher.js';
import { createEmbeddingsSubscriber } from './embeddings-subscriber.js';
import { createEmbeddingsQueue, type EmbeddingsQueue } from './embeddings.queue.js';
import { createEmbeddingsProcessor } from './embeddings.processor.js';
import { LocalEmbedder } from './local-embedder.js';

const REDIS_URL = process.env.LUMIBASE_TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Nothing listens there: a queue on it behaves as one whose Redis is down. */
const DEAD_REDIS_URL = 'redis://127.0.0.1:1';
const logger = createLogger({ level: 'silent' });
const prefix = `test-embeddings-resilience-${randomBytes(4).toString('hex')}`;

let database: TestDatabase;
let stores: Stores;
let models: EmbeddingModels;
let backlog: EmbeddingBacklog;
let deadQueue: EmbeddingsQueue;
let liveQueue: EmbeddingsQueue;
/** What the relay calls with each appended event; swapped per test. */
let enqueuer: EmbeddingsEnqueuer;

beforeAll(async () => {
  database = await openTestDatabase('embeddings_resilience');
  const eventLog = await createEventLog(database.connection);
  backlog = await EmbeddingBacklog.open(database.connection);
  const relay = new OutboxRelay({
    eventLog: eventLog.forSite,
    publish: () => {},
    logger,
    onAppended: (event: SiteEvent, eventId: string) => createEmbeddingsSubscriber(enqueuer).onAppended(event, eventId),
  });
  stores = await createStores(database.connection, { relay });
  models = await createEmbeddingModels(database.connection);
  deadQueue = createEmbeddingsQueue({ redisUrl: DEAD_REDIS_URL, prefix, logger, debounceMs: 0 });
  liveQueue = createEmbeddingsQueue({ redisUrl: REDIS_URL, prefix, logger, debounceMs: 0 });
}, 60_000);

afterAll(async () => {
  await deadQueue?.close();
  await liveQueue?.close();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  await database?.close();
});

async function siteWithNote(title: string) {
  const siteId = (await stores.sites.create(`Resilience ${randomBytes(3).toString('hex')}`)).id;
  await new CollectionsService(stores).create(siteId, { name: 'notes', fields: [{ name: 'title', type: 'string', required: true }] });
  const item = await new ItemsService(stores).create(siteId, 'notes', { title });
  return { siteId, itemId: item.id };
}

function startWorker(embedder: Embedder) {
  const indexer = new EmbeddingIndexer({ stores, embeddings: (siteId) => new EmbeddingStore(models, siteId), embedder, logger });
  return startQueueWorker('embeddings', {
    redisUrl: REDIS_URL,
    prefix,
    logger,
    settings: { WORKER_CONCURRENCY: 1, JOB_LOCK_MS: 30_000, EMBEDDINGS_RATE_LIMIT_PER_MINUTE: 0 },
    handler: createEmbeddingsProcessor({ indexer, logger, rateLimitedPauseMs: 200 }),
  });
}

const vectorsOf = (siteId: string) => models.embeddings.find({ siteId: new Types.ObjectId(siteId), kind: 'item' }).lean();

describe('with Redis down', () => {
  it('still writes the item, keeps its embeddings jobs in the MongoDB backlog, and embeds them once Redis is back', async () => {
    enqueuer = createEmbeddingsEnqueuer({ queue: deadQueue, backlog, logger });
    const { siteId, itemId } = await siteWithNote('Written while Redis was down');
    expect(await new ItemsService(stores).get(siteId, 'notes', itemId)).toMatchObject({ data: { title: 'Written while Redis was down' } });
    // The collection's job and the item's, nothing lost; the events themselves were relayed (nothing left owed).
    expect(await backlog.count()).toBe(2);
    expect(await stores.models.items.countDocuments({ _id: new Types.ObjectId(itemId), 'outbox.0': { $exists: true } })).toBe(0);

    // Redis is back: the drain queues the backlog and a worker embeds it.
    const worker = startWorker(new LocalEmbedder());
    try {
      expect(await backlog.drain((job) => liveQueue.add(job))).toBe(2);
      expect(await backlog.count()).toBe(0);
      await eventually(async () => expect((await vectorsOf(siteId)).map((vector) => vector.itemId)).toEqual([itemId]));
    } finally {
      await worker.close();
    }
  }, 60_000);
});

describe('with a rate-limited or failing provider', () => {
  it('pauses on 429s and retries transient failures with backoff until the item is embedded; no job is lost', async () => {
    enqueuer = createEmbeddingsEnqueuer({ queue: liveQueue, backlog, logger });
    const real = new LocalEmbedder();
    const failures = [
      new EmbeddingProviderError('rate limited', true, 429),
      new EmbeddingProviderError('rate limited', true, 429),
      new EmbeddingProviderError('bad gateway', true, 502),
    ];
    let calls = 0;
    const flaky: Embedder = {
      model: real.model,
      dims: real.dims,
      async embed(texts) {
        calls++;
        const failure = failures.shift();
        if (failure) throw failure;
        return real.embed(texts);
      },
    };
    const worker = startWorker(flaky);
    try {
      const { siteId, itemId } = await siteWithNote('Embedded despite the provider');
      await eventually(async () => expect((await vectorsOf(siteId)).map((vector) => vector.itemId)).toEqual([itemId]), {
        timeoutMs: 30_000,
      });
      expect(calls).toBeGreaterThanOrEqual(4);
    } finally {
      await worker.close();
    }
  }, 60_000);
});

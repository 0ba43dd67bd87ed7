// The stores as tests use them: a real event log and outbox relay, with every published event recorded.
import type { SiteEvent } from '@lumibase/shared';
import type { Connection } from 'mongoose';
import { createLogger } from '../src/logger.js';
import { createEventLog, type EventLog } from '../src/store/event-log.js';
import { OutboxRelay } from '../src/store/outbox.js';
import { AiStores } from '../src/store/ai/ai-stores.js';
import type { PolicyVersions } from '../src/store/ai/policy-versions.js';
import { createStores, type Stores } from '../src/store/stores.js';

export interface TestStores {
  stores: Stores;
  aiStores: AiStores;
  relay: OutboxRelay;
  eventLog: EventLog;
  /** Every event the relay published, in publishing order. */
  published: SiteEvent[];
}

export async function createTestStores(
  connection: Connection,
  { policyVersions }: { policyVersions?: PolicyVersions } = {},
): Promise<TestStores> {
  const eventLog = await createEventLog(connection);
  const published: SiteEvent[] = [];
  const relay = new OutboxRelay({
    eventLog: eventLog.forSite,
    publish: (event) => published.push(event),
    logger: createLogger({ level: 'silent' }),
  });
  const stores = await createStores(connection, { relay });
  // With policy versions (Redis), policies are cached as in production; without, every policy read goes to the database.
  const aiStores = new AiStores(connection, relay, policyVersions ? { policyVersions } : {});
  await aiStores.ensureIndexes();
  return { stores, aiStores, relay, eventLog, published };
}

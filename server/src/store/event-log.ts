// The process's event log over one connection: models, indexes, and a site-scoped store per site.
import type { Connection } from 'mongoose';
import { AppendQueues, EventLogStore, type KnownHeads, knownHeads } from './event-log.store.js';
import { registerSiteEventModels, type SiteEventModels } from './models/site-event.model.js';

export interface EventLog extends KnownHeads {
  models: SiteEventModels;
  forSite(siteId: string): EventLogStore;
}

export async function createEventLog(connection: Connection, { retentionDays }: { retentionDays?: number } = {}): Promise<EventLog> {
  const models = registerSiteEventModels(connection, retentionDays === undefined ? {} : { retentionDays });
  await models.SiteEvent.createIndexes();
  await models.SiteEventHead.createIndexes();
  const queues = new AppendQueues();
  return { models, forSite: (siteId) => new EventLogStore(models, siteId, queues), ...knownHeads(models) };
}

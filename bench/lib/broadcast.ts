// One broadcast measurement, shared by P2 and P6: `rounds` events, each waited for at every socket of a
// fleet; latency = receipt − the event's origin time (LumiBase: its append to the site's log; bare: its emit).
import { ObjectId } from 'mongodb';
import { median, percentile } from './stats.js';
import type { SocketFleet } from './socket-fleet.js';
import type { SiteWithAdmins, System } from './system.js';

export interface BroadcastSource {
  /** Causes one `approval-created` for the fleet's site. */
  trigger(): Promise<unknown>;
  /** Origin time (epoch ms) of each event key, e.g. `approval-created:12`. */
  originTimes(keys: string[], sentAt: Record<string, number>): Promise<Record<string, number>>;
}

export interface BroadcastResult {
  p50: number;
  p95: number;
  p99: number;
  delivered: number;
  expected: number;
}

let collectionCounter = 0;

/** `approval-created` caused by a Copilot request through `serverUrl`; origin = the event's append. */
export function lumibaseSource(system: System, site: SiteWithAdmins, serverUrl: string): BroadcastSource {
  return {
    trigger: () => site.admin.via(serverUrl).chat(site.siteId, `create collection bench${++collectionCounter}`),
    async originTimes(keys) {
      const seqs = keys.map((key) => Number(key.split(':')[1]));
      const events = await system.db
        .collection<{ seq: number; createdAt: Date }>('site_events')
        .find({ siteId: new ObjectId(site.siteId), seq: { $in: seqs } }, { projection: { seq: 1, createdAt: 1 } })
        .toArray();
      const bySeq = new Map(events.map((event) => [event.seq, event.createdAt.getTime()]));
      const origins: Record<string, number> = {};
      for (const key of keys) {
        const at = bySeq.get(Number(key.split(':')[1]));
        if (at !== undefined) origins[key] = at;
      }
      return origins;
    },
  };
}

/** The bare server's emit of the same payload to the site's room; origin = its `sentAt`. */
export function bareSource(emit: () => Promise<unknown>): BroadcastSource {
  return { trigger: emit, originTimes: async (keys, sentAt) => Object.fromEntries(keys.map((key) => [key, sentAt[key] as number])) };
}

export async function measureBroadcast(
  fleet: SocketFleet,
  source: BroadcastSource,
  rounds: number,
  eventName = 'approval-created',
): Promise<BroadcastResult> {
  const perRound: number[][] = [];
  for (let round = 0; round < rounds; round++) {
    const { key, receipts } = await fleet.round(() => source.trigger(), eventName);
    if (!key) {
      perRound.push([]);
      continue;
    }
    const origin = (await source.originTimes([key], receipts.sentAt))[key] as number;
    perRound.push((receipts.receipts[key] ?? []).map((at) => at - origin));
  }
  const delivered = perRound.reduce((sum, latencies) => sum + latencies.length, 0);
  return {
    p50: median(perRound.map((latencies) => percentile(latencies, 0.5))),
    p95: median(perRound.map((latencies) => percentile(latencies, 0.95))),
    p99: median(perRound.map((latencies) => percentile(latencies, 0.99))),
    delivered,
    expected: rounds * fleet.size,
  };
}

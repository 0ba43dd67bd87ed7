// P7: decide → `approval-decided(approved)` at a client, p50, vs a lean floor measured in the same run: 12 Mongo and
// 6 Redis round trips × their own p50, plus one socket hop (a bare socket.io server's emit → receipt at one socket,
// the same payload); and the round trips the path makes per approval (counted on the wire) against their limits.
// The latency against the floor of its own round trips is reported beside (no goal).
import { createClient } from 'redis';
import { connectSocket, connected } from '../test/support/socket-client.js';
import { bareSource, measureBroadcast } from './lib/broadcast.js';
import { startChild } from './lib/children.js';
import { type BenchRow, row } from './lib/report.js';
import { SocketFleet } from './lib/socket-fleet.js';
import { REPETITIONS, SETTINGS } from './lib/settings.js';
import { median, percentile } from './lib/stats.js';
import { cpuMillis, type System } from './lib/system.js';
import { type CommandCounts, difference, mongoCommandCounts, monitorRedis, summariseMongo, total } from './lib/wire-counts.js';

const GOAL = { op: '<=', value: 3 } as const;
/** The lean path's round trips per approval (issue 33, docs/DESIGN.md): the floor the latency is held to. */
const LEAN_FLOOR = { mongo: 12, redis: 6 } as const;
/** The most round trips one approval may cost, counted on the wire. */
const MAX_ROUND_TRIPS = { mongo: 16, redis: 8 } as const;
const PING_SAMPLES = 300;

export interface P7Counts {
  mongoRoundTrips: number;
  mongoWrites: number;
  mongoByCommand: CommandCounts;
  redisRoundTrips: number;
  redisByCommand: CommandCounts;
  /** CPU time per approval, by process kind, over the same window as the round trips (ms). */
  cpuMsPerApproval: { servers: number; worker: number; mongo: number };
}

async function pingMs(ping: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let index = 0; index < PING_SAMPLES; index++) {
    const started = performance.now();
    await ping();
    samples.push(performance.now() - started);
  }
  return percentile(samples, 0.5);
}

/** One socket hop: a bare socket.io server emitting the approval to one socket, emit → receipt, p50. */
async function socketHop(siteId: string, approval: unknown): Promise<number> {
  const bare = startChild('bare-socket-server.ts', { lifetimeMs: SETTINGS.childLifetimeMs });
  const fleet = new SocketFleet();
  try {
    const { url } = await bare.ask<{ url: string }>('listen');
    await fleet.grow(1, url, { siteId });
    const emit = () => bare.ask('emit', { room: siteId, event: 'approval-decided', payload: { siteId, approval } });
    await measureBroadcast(fleet, bareSource(emit), 2, 'approval-decided'); // warm-up
    return (await measureBroadcast(fleet, bareSource(emit), REPETITIONS * 4, 'approval-decided')).p50;
  } finally {
    await fleet.close();
    await bare.stop();
  }
}

export async function runP7(system: System): Promise<{ rows: BenchRow[]; details: Record<string, unknown>; counts: P7Counts }> {
  const site = await system.newSite();
  const [serverA] = system.servers;
  const watcher = connectSocket(serverA, { token: site.admin.token, siteId: site.siteId });
  await connected(watcher);
  const redis = createClient({ url: system.cluster.redisUrl });
  await redis.connect();
  try {
    const decideOne = async (name: string) => {
      const { approvalId } = await site.admin.chat(site.siteId, `create collection ${name}`);
      if (!approvalId) throw new Error(`no approval for ${name}`);
      const started = performance.now();
      const decided = site.approver.request('POST', `/ai/approvals/${approvalId}/decide`, {
        siteId: site.siteId,
        body: { decision: 'approved' },
      });
      await watcher.waitFor(
        (event) =>
          event.name === 'approval-decided' && event.payload.approval.id === approvalId && event.payload.approval.status === 'approved',
      );
      const latency = performance.now() - started;
      const response = await decided;
      if (response.status !== 200) throw new Error(`decide answered ${response.status} ${JSON.stringify(response.body)}`);
      return latency;
    };
    // Warm-up: every connection on the path exists before the Redis ports are read and counting starts.
    await decideOne('p7warm1');
    await decideOne('p7warm2');

    // Counting: approvals asked first (their chats are not part of the path), then decided one at a time.
    const count = SETTINGS.p7Approvals;
    const approvals: string[] = [];
    for (let index = 0; index < count; index++)
      approvals.push((await site.admin.chat(site.siteId, `create collection p7n${index}`)).approvalId);
    const monitor = await monitorRedis(system.cluster.redisUrl, [system.serverPid(0), system.serverPid(1), system.workerPid()]);
    const cpuNow = async () => {
      const [serverA, serverB, worker, mongo] = await Promise.all(
        [system.serverPid(0), system.serverPid(1), system.workerPid(), system.mongoPid()].map(cpuMillis),
      );
      return { servers: (serverA as number) + (serverB as number), worker: worker as number, mongo: mongo as number };
    };
    const cpuBefore = await cpuNow();
    const mongoBefore = await mongoCommandCounts(system.db);
    for (const approvalId of approvals) {
      await site.approver.expect(200, 'POST', `/ai/approvals/${approvalId}/decide`, {
        siteId: site.siteId,
        body: { decision: 'approved' },
      });
      await watcher.waitFor(
        (event) =>
          event.name === 'approval-decided' && event.payload.approval.id === approvalId && event.payload.approval.status === 'approved',
      );
    }
    // The relay of the last events may still be clearing its outbox: let it finish inside the window.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const mongoDelta = difference(await mongoCommandCounts(system.db), mongoBefore);
    const cpuAfter = await cpuNow();
    const redisCounts = await monitor.stop();
    const mongo = summariseMongo(mongoDelta, count);
    const counts: P7Counts = {
      mongoRoundTrips: mongo.roundTrips,
      mongoWrites: mongo.writes,
      mongoByCommand: mongo.byCommand,
      redisRoundTrips: total(redisCounts) / count,
      redisByCommand: Object.fromEntries(Object.entries(redisCounts).map(([name, value]) => [name, value / count])),
      cpuMsPerApproval: {
        servers: (cpuAfter.servers - cpuBefore.servers) / count,
        worker: (cpuAfter.worker - cpuBefore.worker) / count,
        mongo: (cpuAfter.mongo - cpuBefore.mongo) / count,
      },
    };

    // The path's latency, and its parts, in the same run.
    const latencies: number[] = [];
    for (let index = 0; index < Math.max(5, count); index++) latencies.push(await decideOne(`p7c${index}`));
    const mongoPing = await pingMs(() => system.db.command({ ping: 1 }));
    const redisPing = await pingMs(() => redis.ping());
    const decidedApproval = watcher.events.findLast((event) => event.name === 'approval-decided')?.payload.approval;
    const socketHopMs = await socketHop(site.siteId, decidedApproval);
    const ownFloor = counts.mongoRoundTrips * mongoPing + counts.redisRoundTrips * redisPing + socketHopMs;
    const leanFloor = LEAN_FLOOR.mongo * mongoPing + LEAN_FLOOR.redis * redisPing + socketHopMs;
    const measured = median(latencies);
    const cpu = counts.cpuMsPerApproval;
    return {
      rows: [
        row({
          id: 'P7',
          name: 'decide → approval-decided(approved) p50 vs the lean floor',
          measured,
          baseline: leanFloor,
          unit: 'ms',
          goal: GOAL,
          note: `floor = ${LEAN_FLOOR.mongo} Mongo RT × ${mongoPing.toFixed(2)} + ${LEAN_FLOOR.redis} Redis RT × ${redisPing.toFixed(2)} + hop ${socketHopMs.toFixed(2)} ms`,
        }),
        row({
          id: 'P7',
          name: 'the same vs the floor of its own round trips',
          measured,
          baseline: ownFloor,
          unit: 'ms',
          note: `floor = ${counts.mongoRoundTrips.toFixed(1)} Mongo RT (${counts.mongoWrites.toFixed(1)} writes) × ${mongoPing.toFixed(2)} + ${counts.redisRoundTrips.toFixed(1)} Redis RT × ${redisPing.toFixed(2)} + hop ${socketHopMs.toFixed(2)} ms; CPU per approval: servers ${cpu.servers.toFixed(1)} + worker ${cpu.worker.toFixed(1)} + MongoDB ${cpu.mongo.toFixed(1)} ms`,
        }),
        row({
          id: 'P7',
          name: 'Mongo round trips per approval',
          measured: counts.mongoRoundTrips,
          baseline: MAX_ROUND_TRIPS.mongo,
          unit: 'RT',
          goal: { op: '<=', value: 1 },
          note: `at most ${MAX_ROUND_TRIPS.mongo}; ${counts.mongoWrites.toFixed(1)} of them writes`,
        }),
        row({
          id: 'P7',
          name: 'Redis round trips per approval',
          measured: counts.redisRoundTrips,
          baseline: MAX_ROUND_TRIPS.redis,
          unit: 'RT',
          goal: { op: '<=', value: 1 },
          note: `at most ${MAX_ROUND_TRIPS.redis}`,
        }),
      ],
      details: { latencies, mongoPingMs: mongoPing, redisPingMs: redisPing, socketHopMs, counts },
      counts,
    };
  } finally {
    watcher.close();
    await redis.quit();
  }
}

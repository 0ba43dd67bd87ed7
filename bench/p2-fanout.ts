// P2: `approval-created` fan-out to N sockets of one site, from the event's append to its receipt, vs a
// bare socket.io server emitting the same payload to a room of the same size; then two API servers on
// the Redis adapter (half the sockets on each) vs one.
import { type BenchRow, row } from './lib/report.js';
import { bareSource, lumibaseSource, measureBroadcast } from './lib/broadcast.js';
import { startChild } from './lib/children.js';
import { P2_GOAL_P99, REPETITIONS, SETTINGS } from './lib/settings.js';
import { SocketFleet } from './lib/socket-fleet.js';
import { median } from './lib/stats.js';
import type { System } from './lib/system.js';

export interface P2Result {
  rows: BenchRow[];
  details: Record<string, unknown>;
}

export async function runP2(system: System): Promise<P2Result> {
  const site = await system.newSite();
  const auth = { token: site.admin.token, siteId: site.siteId };
  const [serverA, serverB] = system.servers;
  // The payload the bare server emits: a real approval of the same shape.
  const probe = await site.admin.chat(site.siteId, 'create collection probe');
  const approval = await site.admin.expect(200, 'GET', `/ai/approvals/${probe.approvalId}`, { siteId: site.siteId });
  const bare = startChild('bare-socket-server.ts', { lifetimeMs: SETTINGS.childLifetimeMs });
  const { url: bareUrl } = await bare.ask<{ url: string }>('listen');
  const emit = () => bare.ask('emit', { room: site.siteId, event: 'approval-created', payload: { siteId: site.siteId, approval } });

  const rows: BenchRow[] = [];
  const details: Record<string, unknown> = {};
  try {
    for (const size of SETTINGS.p2Sizes) {
      const lumibaseFleet = new SocketFleet();
      const bareFleet = new SocketFleet();
      await lumibaseFleet.grow(size, serverA, auth);
      await bareFleet.grow(size, bareUrl, { siteId: site.siteId });
      const lumibase = await measureBroadcast(lumibaseFleet, lumibaseSource(system, site, serverA), REPETITIONS);
      const baseline = await measureBroadcast(bareFleet, bareSource(emit), REPETITIONS);
      await Promise.all([lumibaseFleet.close(), bareFleet.close()]);
      details[`size${size}`] = { lumibase, baseline };
      const delivered = `${lumibase.delivered}/${lumibase.expected} delivered (${((100 * lumibase.delivered) / lumibase.expected).toFixed(1)}%)`;
      rows.push(row({ id: 'P2', name: `p50 append→receipt @${size}`, measured: lumibase.p50, baseline: baseline.p50, unit: 'ms' }));
      rows.push(
        row({
          id: 'P2',
          name: `p99 append→receipt @${size}`,
          measured: lumibase.p99,
          baseline: baseline.p99,
          unit: 'ms',
          goal: { op: '<=', value: P2_GOAL_P99 },
          note: delivered,
        }),
      );
      if (lumibase.delivered !== lumibase.expected) rows[rows.length - 1]!.met = false;
    }

    // Two server processes on the Redis adapter vs one, the same number of sockets, the event through A.
    const size = SETTINGS.p2TwoServersSize;
    const one = new SocketFleet();
    const two = new SocketFleet();
    await one.grow(size, serverA, auth);
    await two.grow(Math.ceil(size / 2), serverA, auth);
    await two.grow(size, serverB, auth);
    const oneRuns: number[] = [];
    const twoRuns: number[] = [];
    let twoDelivered = 0;
    let twoExpected = 0;
    const source = lumibaseSource(system, site, serverA);
    for (let repetition = 0; repetition < REPETITIONS; repetition++) {
      oneRuns.push((await measureBroadcast(one, source, 1)).p99);
      const split = await measureBroadcast(two, source, 1);
      twoRuns.push(split.p99);
      twoDelivered += split.delivered;
      twoExpected += split.expected;
    }
    await Promise.all([one.close(), two.close()]);
    details.twoServers = { oneRuns, twoRuns, twoDelivered, twoExpected };
    rows.push(
      row({
        id: 'P2',
        name: `p99 two servers vs one @${size}`,
        measured: median(twoRuns),
        baseline: median(oneRuns),
        unit: 'ms',
        note: `${twoDelivered}/${twoExpected} delivered across both`,
      }),
    );
    return { rows, details };
  } finally {
    await bare.stop();
  }
}

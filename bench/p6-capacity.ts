// P6: the most sockets one server process holds while a broadcast's p95 (append/emit → receipt) stays
// within 250 ms, LumiBase vs a bare socket.io server, stepping up the socket count; memory per socket.
import { type BenchRow, row } from './lib/report.js';
import { type BroadcastSource, bareSource, lumibaseSource, measureBroadcast } from './lib/broadcast.js';
import { startChild } from './lib/children.js';
import { P6_BROADCAST_P95_LIMIT_MS, REPETITIONS, SETTINGS } from './lib/settings.js';
import { SocketFleet } from './lib/socket-fleet.js';
import { residentBytes, type System } from './lib/system.js';

interface Capacity {
  sockets: number;
  bytesPerSocket: number;
  steps: Array<{ sockets: number; p95: number; delivered: number; expected: number; residentBytes: number }>;
}

/** Least-squares slope of resident memory over sockets held: bytes per socket, robust to one GC between steps. */
function slope(points: Array<{ sockets: number; residentBytes: number }>): number {
  if (points.length < 2) return Number.NaN;
  const meanX = points.reduce((sum, point) => sum + point.sockets, 0) / points.length;
  const meanY = points.reduce((sum, point) => sum + point.residentBytes, 0) / points.length;
  const covariance = points.reduce((sum, point) => sum + (point.sockets - meanX) * (point.residentBytes - meanY), 0);
  const variance = points.reduce((sum, point) => sum + (point.sockets - meanX) ** 2, 0);
  return covariance / variance;
}

async function capacity(url: string, pid: number, auth: Record<string, unknown>, source: BroadcastSource): Promise<Capacity> {
  const fleet = new SocketFleet();
  const steps: Capacity['steps'] = [];
  const points = [{ sockets: 0, residentBytes: await residentBytes(pid) }];
  let held = 0;
  try {
    for (const step of SETTINGS.p6Steps) {
      try {
        await fleet.grow(step, url, auth);
      } catch {
        break;
      }
      const resident = await residentBytes(pid);
      points.push({ sockets: fleet.size, residentBytes: resident });
      const result = await measureBroadcast(fleet, source, REPETITIONS);
      steps.push({ sockets: fleet.size, p95: result.p95, delivered: result.delivered, expected: result.expected, residentBytes: resident });
      if (result.p95 > P6_BROADCAST_P95_LIMIT_MS || result.delivered < result.expected) break;
      held = fleet.size;
    }
  } finally {
    await fleet.close();
  }
  return { sockets: held, bytesPerSocket: slope(points), steps };
}

export async function runP6(system: System): Promise<{ rows: BenchRow[]; details: Record<string, unknown> }> {
  const site = await system.newSite();
  const probe = await site.admin.chat(site.siteId, 'create collection probe');
  const approval = await site.admin.expect(200, 'GET', `/ai/approvals/${probe.approvalId}`, { siteId: site.siteId });
  const bare = startChild('bare-socket-server.ts', { lifetimeMs: SETTINGS.childLifetimeMs });
  try {
    const { url: bareUrl } = await bare.ask<{ url: string }>('listen');
    // A server process of its own, so that its memory holds these sockets and nothing left from P2.
    const fresh = await system.cluster.startServer();
    const freshPid = system.serverPid(system.cluster.servers.length - 1);
    const lumibase = await capacity(fresh, freshPid, { token: site.admin.token, siteId: site.siteId }, lumibaseSource(system, site, fresh));
    const baseline = await capacity(
      bareUrl,
      bare.pid,
      { siteId: site.siteId },
      bareSource(() => bare.ask('emit', { room: site.siteId, event: 'approval-created', payload: { siteId: site.siteId, approval } })),
    );
    const cap = SETTINGS.p6Steps[SETTINGS.p6Steps.length - 1];
    return {
      rows: [
        row({
          id: 'P6',
          name: `sockets held, broadcast p95 ≤${P6_BROADCAST_P95_LIMIT_MS} ms`,
          measured: lumibase.sockets,
          baseline: baseline.sockets,
          unit: 'sockets',
          goal: { op: '>=', value: 0.8 },
          note: `steps up to ${cap}${lumibase.sockets === cap && baseline.sockets === cap ? ' (both reached the cap)' : ''}`,
        }),
        row({
          id: 'P6',
          name: 'memory per socket (server RSS slope)',
          measured: lumibase.bytesPerSocket / 1024,
          baseline: baseline.bytesPerSocket / 1024,
          unit: 'KiB',
          goal: { op: '<=', value: 1.2 },
        }),
      ],
      details: { lumibase, baseline },
    };
  } finally {
    await bare.stop();
  }
}

// Counts the round trips a path makes, on the wire: MongoDB commands from the embedded server's own
// per-command counters (serverStatus.embedded), Redis commands from MONITOR, kept to the connections
// of the processes under test (their client ports, found with `ss`).
import { execFileSync } from 'node:child_process';
import type { Db, Document } from 'mongodb';
import { createClient } from 'redis';

/** Driver housekeeping, not part of any request's path. */
const MONGO_HOUSEKEEPING = new Set(['hello', 'ismaster', 'isMaster', 'ping', 'serverStatus', 'endSessions', 'buildInfo', 'saslStart']);
const MONGO_WRITES = new Set(['insert', 'update', 'delete', 'findAndModify']);

export type CommandCounts = Record<string, number>;

export async function mongoCommandCounts(db: Db): Promise<CommandCounts> {
  const status = await db.admin().command({ serverStatus: 1 });
  const commands = (status.embedded as Document).commands as Record<string, { count: number }>;
  return Object.fromEntries(Object.entries(commands).map(([name, timing]) => [name, timing.count]));
}

export function difference(after: CommandCounts, before: CommandCounts): CommandCounts {
  const delta: CommandCounts = {};
  for (const [name, count] of Object.entries(after)) {
    const change = count - (before[name] ?? 0);
    if (change > 0) delta[name] = change;
  }
  return delta;
}

export function summariseMongo(delta: CommandCounts, per: number): { roundTrips: number; writes: number; byCommand: CommandCounts } {
  const byCommand: CommandCounts = {};
  let roundTrips = 0;
  let writes = 0;
  for (const [name, count] of Object.entries(delta)) {
    if (MONGO_HOUSEKEEPING.has(name)) continue;
    byCommand[name] = count / per;
    roundTrips += count;
    if (MONGO_WRITES.has(name)) writes += count;
  }
  return { roundTrips: roundTrips / per, writes: writes / per, byCommand };
}

/** The local ports of the Redis connections `pids` hold right now. */
function redisClientPorts(pids: number[], redisPort: number): Set<string> {
  const output = execFileSync('ss', ['-tnpH', 'state', 'established', `( dport = :${redisPort} )`], { encoding: 'utf8' });
  const ports = new Set<string>();
  for (const line of output.split('\n')) {
    const pid = /pid=(\d+)/.exec(line)?.[1];
    const local = line.trim().split(/\s+/)[2];
    if (pid && local && pids.includes(Number(pid))) ports.add(local.slice(local.lastIndexOf(':') + 1));
  }
  return ports;
}

/** Records the Redis commands the processes `pids` send until `stop`, by command name. */
export async function monitorRedis(redisUrl: string, pids: number[]): Promise<{ stop(): Promise<CommandCounts> }> {
  const ports = redisClientPorts(pids, Number(new URL(redisUrl).port || 6379));
  const counts: CommandCounts = {};
  const client = createClient({ url: redisUrl });
  await client.connect();
  await client.monitor((line: string) => {
    const match = /\[\d+ [\d.]+:(\d+)\] "([^"]+)"/.exec(line);
    if (!match || !ports.has(match[1] as string)) return;
    const command = (match[2] as string).toLowerCase();
    counts[command] = (counts[command] ?? 0) + 1;
  });
  return {
    async stop() {
      client.destroy();
      return counts;
    },
  };
}

export function total(counts: CommandCounts): number {
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
}

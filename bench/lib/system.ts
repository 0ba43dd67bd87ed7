// The system under test, started once per bench run with the test suite's own building blocks: the
// embedded MongoDB as its own process, two API servers (socket.io on the Redis adapter) and one worker.
import { type Db, MongoClient } from 'mongodb';
import { ApiClient } from '../../test/support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../../test/support/cluster.js';
import { stopAll } from '../../test/support/processes.js';

export interface SiteWithAdmins {
  siteId: string;
  /** Asks the Copilot (its requests become approvals). */
  admin: ApiClient & { userId: string };
  /** Decides them (self-approval is off by default). */
  approver: ApiClient & { userId: string };
}

export interface System {
  cluster: Cluster;
  /** Base URLs of the two API servers. */
  servers: [string, string];
  superadmin: ApiClient;
  /** The cluster's database through the plain driver (reading event times, counting commands). */
  db: Db;
  serverPid(index: number): number;
  workerPid(): number;
  mongoPid(): number;
  newSite(): Promise<SiteWithAdmins>;
  stop(): Promise<void>;
}

export async function startSystem(): Promise<System> {
  // warn: request logs would travel through a pipe to this process and be measured as the server's cost.
  const cluster = new Cluster({ env: { CHAT_RATE_LIMIT_PER_MINUTE: '10000', LOG_LEVEL: 'warn', DECIDE_WAIT_MS: '10000' } });
  await cluster.startMongo();
  const [first, second] = await Promise.all([cluster.startServer(), cluster.startServer(), cluster.startWorker({ LOG_LEVEL: 'info' })]);
  const superadmin = await ApiClient.signIn(first, ADMIN_EMAIL, ADMIN_PASSWORD);
  const mongo = await MongoClient.connect(cluster.mongoUri);
  const db = mongo.db(`cluster_${cluster.prefix}`);
  let sites = 0;
  return {
    cluster,
    servers: [first, second],
    superadmin,
    db,
    serverPid: (index) => cluster.servers[index]?.process.child.pid as number,
    workerPid: () => cluster.workers[0]?.child.pid as number,
    mongoPid: () => cluster.mongoPid as number,
    async newSite() {
      const siteId = await superadmin.createSite(`Bench ${++sites}`);
      const [admin, approver] = await Promise.all([superadmin.createMember(siteId, 'admin'), superadmin.createMember(siteId, 'admin')]);
      return { siteId, admin, approver };
    },
    async stop() {
      await mongo.close();
      await cluster.stop();
      await stopAll();
    },
  };
}

/** Resident memory of a process on this machine, in bytes (Linux). */
export async function residentBytes(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kib) * 1024;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux's usual builds). */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used so far, in ms (Linux; 10 ms resolution). */
export async function cpuMillis(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces, so split after its closing parenthesis): utime is the 14th
  // field of the line, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

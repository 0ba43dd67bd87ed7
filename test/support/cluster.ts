// A LumiBase cluster as scale mode runs it, on this machine: the wire-server MongoDB as its own process,
// N API servers and M workers sharing one Redis, each test with its own queue prefix, database and ports.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type StartedProcess, startTs, waitForHttp } from './processes.js';
import { testRedisUrl } from './redis-url.js';

export const ADMIN_EMAIL = 'admin@cluster.test';
export const ADMIN_PASSWORD = 'cluster-admin-password';

export interface ClusterOptions {
  /** Settings every server and worker gets (DECIDE_WAIT_MS, JOB_LOCK_MS, ...). */
  env?: Record<string, string>;
  redisUrl?: string;
}

export class Cluster {
  readonly prefix = `t${randomBytes(4).toString('hex')}`;
  readonly dataDir = mkdtempSync(join(tmpdir(), 'lumibase-cluster-'));
  readonly servers: Array<{ process: StartedProcess; url: string }> = [];
  readonly workers: StartedProcess[] = [];
  mongoUri = '';
  private mongo: StartedProcess | undefined;

  constructor(private readonly options: ClusterOptions = {}) {}

  /** The embedded MongoDB's process id, once started (the bench reads its CPU time). */
  get mongoPid(): number | undefined {
    return this.mongo?.child.pid;
  }

  get redisUrl(): string {
    return this.options.redisUrl ?? testRedisUrl();
  }

  /** Settings shared by every LumiBase process of this cluster. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      MONGODB_URI: this.mongoUri,
      MONGODB_DB: `cluster_${this.prefix}`,
      REDIS_URL: this.redisUrl,
      QUEUE_PREFIX: this.prefix,
      LUMIBASE_ADMIN_EMAIL: ADMIN_EMAIL,
      LUMIBASE_ADMIN_PASSWORD: ADMIN_PASSWORD,
      DATA_DIR: this.dataDir,
      LOG_LEVEL: 'info',
      ...this.options.env,
      ...extra,
    };
  }

  async startMongo(): Promise<string> {
    this.mongo = startTs('embedded-mongo/src/cli.ts', { args: ['--port', '0', '--in-memory'], env: { LOG_LEVEL: 'warn' } });
    const ready = await this.mongo.waitForLine(/^ready mongodb:\/\//);
    this.mongoUri = ready.replace(/^ready /, '').trim();
    return this.mongoUri;
  }

  async startServer(extra: Record<string, string> = {}): Promise<string> {
    const port = await freePort();
    const process = startTs('server/src/main.ts', { env: this.env({ PORT: String(port), ...extra }) });
    const url = `http://127.0.0.1:${port}`;
    // A server that exits (a bad setting, a failed start) fails the test at once, with its output.
    const exited = process.exited.then((code) => {
      throw new Error(`server exited (${code}) before it was ready; output:\n${process.output()}`);
    });
    await Promise.race([waitForHttp(`${url}/readyz`, { timeoutMs: 90_000 }), exited]);
    exited.catch(() => {});
    this.servers.push({ process, url });
    return url;
  }

  /**
   * A worker process. With FAULT_DELAY_BEFORE_SKILL_MS or FAULT_DELAY_AFTER_SKILL_MS among `extra`, the worker is
   * composed with those fault delays by the test-only entry (fault-worker.ts); production has no such settings.
   */
  async startWorker(extra: Record<string, string> = {}): Promise<StartedProcess> {
    const faulty = Object.keys(extra).some((name) => name.startsWith('FAULT_DELAY_'));
    const worker = startTs(faulty ? 'test/support/fault-worker.ts' : 'workers/src/main.ts', { env: this.env(extra) });
    await worker.waitForLine(/workers started/, 90_000);
    this.workers.push(worker);
    return worker;
  }

  async stop(): Promise<void> {
    await Promise.all([
      ...this.servers.map(({ process }) => process.stop('SIGKILL')),
      ...this.workers.map((worker) => worker.stop('SIGKILL')),
    ]);
    await this.mongo?.stop('SIGTERM');
  }
}

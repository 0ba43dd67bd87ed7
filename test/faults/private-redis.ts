// A redis-server of one test file's own, on its own port and without persistence: stopping it disturbs no other test
// (the shared Redis on 6379 stays up), and bringing it back starts it empty, as a Redis without AOF comes back.
import { type ChildProcess, spawn } from 'node:child_process';
import { redisAnswers } from '../../server/src/infrastructure/resolve-redis.js';
import { freePort } from '../support/processes.js';

export class PrivateRedis {
  private child: ChildProcess | undefined;
  port = 0;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.port === 0) this.port = await freePort();
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'],
      { stdio: 'ignore' },
    );
    this.child = child;
    for (let attempt = 0; attempt < 400; attempt++) {
      if (await redisAnswers('127.0.0.1', this.port)) return;
      if (child.exitCode !== null) break;
      await new Promise((wait) => setTimeout(wait, 50));
    }
    child.kill('SIGKILL');
    throw new Error(`redis-server did not answer on port ${this.port}`);
  }

  /** Kills it at once (what it held is gone: it persists nothing). */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGKILL');
    await exited;
  }
}

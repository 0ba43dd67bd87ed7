// Finds the Redis to use: REDIS_URL, else one answering on 127.0.0.1:6379, else a redis-server we spawn.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { resolve } from 'node:path';
import type { Logger } from '../logger.js';

export interface ResolvedRedis {
  url: string;
  /** How the URL was found; `spawned` means we own the process and stop it in `stop`. */
  source: 'configured' | 'local' | 'spawned';
  stop(): Promise<void>;
}

export class RedisNotFoundError extends Error {
  constructor() {
    super(
      'Redis is not configured, nothing answers on 127.0.0.1:6379 and redis-server is not on PATH. ' +
        'Install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_URL.',
    );
    this.name = 'RedisNotFoundError';
  }
}

/** True when something on host:port answers a Redis PING with +PONG. */
export function redisAnswers(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host, port });
    const finish = (answer: boolean) => {
      socket.destroy();
      done(answer);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (chunk) => finish(chunk.toString().startsWith('+PONG')));
  });
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

async function spawnRedis(dataDir: string, logger: Logger): Promise<ResolvedRedis> {
  const dir = resolve(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--appendonly',
    'yes',
    '--maxmemory-policy',
    'noeviction',
    '--save',
    '',
  ];
  const child: ChildProcess = spawn('redis-server', args, { stdio: 'ignore' });
  const spawnError = await new Promise<Error | undefined>((done) => {
    child.once('error', done);
    child.once('spawn', () => done(undefined));
  });
  if (spawnError) throw (spawnError as NodeJS.ErrnoException).code === 'ENOENT' ? new RedisNotFoundError() : spawnError;
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await redisAnswers('127.0.0.1', port)) {
      logger.info({ port, dir }, 'spawned redis-server (AOF on)');
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      return {
        url: `redis://127.0.0.1:${port}`,
        source: 'spawned',
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          await exited;
        },
      };
    }
    if (child.exitCode !== null) break;
    await new Promise((wait) => setTimeout(wait, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not start on port ${port}`);
}

export async function resolveRedis({
  url,
  dataDir,
  logger,
  localPort = 6379,
}: {
  url: string | undefined;
  dataDir: string;
  logger: Logger;
  /** Where a local Redis is looked for before spawning one (tests point it elsewhere). */
  localPort?: number;
}): Promise<ResolvedRedis> {
  const nothingToStop = async () => {};
  if (url) return { url, source: 'configured', stop: nothingToStop };
  if (await redisAnswers('127.0.0.1', localPort)) {
    logger.info(`using Redis on 127.0.0.1:${localPort}`);
    return { url: `redis://127.0.0.1:${localPort}`, source: 'local', stop: nothingToStop };
  }
  return spawnRedis(dataDir, logger);
}

// Load generators and bare baselines run as child processes on 127.0.0.1: the parent asks, they answer,
// over Node's IPC channel. Each child ends itself when its time is up or its parent goes away.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface BenchChild {
  pid: number;
  /** Sends one request and resolves with the child's answer (rejects with its error). */
  ask<T>(type: string, fields?: Record<string, unknown>, timeoutMs?: number): Promise<T>;
  stop(): Promise<void>;
}

const live = new Set<BenchChild>();

/** `entry` is a module of bench/load (e.g. 'socket-clients.ts'); `lifetimeMs` bounds how long it may live. */
export function startChild(entry: string, { lifetimeMs, env = {} }: { lifetimeMs: number; env?: Record<string, string> }): BenchChild {
  const file = fileURLToPath(new URL(`../load/${entry}`, import.meta.url));
  const child: ChildProcess = fork(file, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env, BENCH_CHILD_LIFETIME_MS: String(lifetimeMs) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  child.on('message', (message: { id: number; result?: unknown; error?: string }) => {
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.error !== undefined) waiter.reject(new Error(`${entry}: ${message.error}`));
    else waiter.resolve(message.result);
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  void exited.then(() => {
    for (const waiter of pending.values()) waiter.reject(new Error(`${entry} exited`));
    pending.clear();
  });
  const started: BenchChild = {
    pid: child.pid as number,
    ask<T>(type: string, fields: Record<string, unknown> = {}, timeoutMs = 120_000): Promise<T> {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${entry}: no answer to ${type} within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, {
          resolve: (value) => {
            clearTimeout(timer);
            resolve(value as T);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
        child.send({ id, type, ...fields });
      });
    },
    async stop() {
      live.delete(started);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  live.add(started);
  return started;
}

/** Ends every child still running (the bench's finally). */
export async function stopChildren(): Promise<void> {
  await Promise.all([...live].map((child) => child.stop()));
}

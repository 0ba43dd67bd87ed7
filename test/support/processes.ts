// Starts LumiBase processes for cross-process tests and stops them however the test ends.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { until } from './poll.js';

export const ROOT = join(import.meta.dirname, '../..');

export interface StartedProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first output line matching `pattern`, rejects if the process exits first. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const running = new Set<StartedProcess>();

export function startTs(entry: string, { env = {}, args = [] }: { env?: Record<string, string>; args?: string[] } = {}): StartedProcess {
  // Node itself with tsx's loader, not the tsx CLI: the CLI runs the program in a child process, so a SIGKILL
  // sent to it would leave the program running as an orphan (a crash test would kill nothing).
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, entry), ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const started: StartedProcess = {
    child,
    output: () => output,
    exited,
    waitForLine(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const line = output.split('\n').find((candidate) => pattern.test(candidate));
          if (line !== undefined) {
            cleanup();
            resolve(line);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; output:\n${output}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        exited.then((code) => {
          if (!listeners.has(check)) return;
          cleanup();
          reject(new Error(`process exited (${code}) before a line matching ${pattern}; output:\n${output}`));
        });
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      running.delete(started);
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  running.add(started);
  return started;
}

/** Kills whatever a test left running (call from afterAll/afterEach). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((started) => started.stop('SIGKILL')));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function waitForHttp(url: string, { status = 200, timeoutMs = 60_000 } = {}): Promise<Response> {
  const answer = await until(
    () =>
      fetch(url).then(
        (response) => response,
        (error: Error) => error.message,
      ),
    (answer) => typeof answer !== 'string' && answer.status === status,
    { timeoutMs, what: `${url} answering ${status}` },
  );
  return answer as Response;
}

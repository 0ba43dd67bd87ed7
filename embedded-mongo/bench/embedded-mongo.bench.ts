// Benchmark of the embedded MongoDB-wire server through the raw driver: `npm run bench:embedded-mongo`.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Db, type Document, MongoClient } from 'mongodb';
import { startEmbeddedMongo } from '../src/index.js';

const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 3000);
const SEED_DOCUMENTS = 10_000;
const PING_SAMPLES = Number(process.env.BENCH_PING_SAMPLES ?? 2000);
/** Where `npm run bench` wants the figures as JSON (it prints them in its own table). */
const JSON_OUT = process.env.BENCH_JSON;
// By default the server runs in its own process, so the client's work and GC do not land in its timings.
const IN_PROCESS = process.env.BENCH_IN_PROCESS === '1';
const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

interface BenchServer {
  uri: string;
  stop(): Promise<void>;
}

async function startServer(dbPath: string): Promise<BenchServer> {
  if (IN_PROCESS) return startEmbeddedMongo({ dbPath });
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--dbpath', dbPath], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  const uri = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const ready = /^ready (\S+)$/m.exec(output);
      if (ready) resolve(ready[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    uri,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

interface PhaseResult {
  name: string;
  callers: number;
  operations: number;
  seconds: number;
  latenciesMicros: number[];
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

/** Runs `operation` from `callers` concurrent loops for PHASE_MS and records each latency. */
async function runPhase(
  name: string,
  callers: number,
  operation: (caller: number, sequence: number) => Promise<unknown>,
): Promise<PhaseResult> {
  const latenciesMicros: number[] = [];
  const deadline = performance.now() + PHASE_MS;
  const started = performance.now();
  let sequence = 0;
  await Promise.all(
    Array.from({ length: callers }, async (_, caller) => {
      while (performance.now() < deadline) {
        const begin = performance.now();
        await operation(caller, sequence++);
        latenciesMicros.push((performance.now() - begin) * 1000);
      }
    }),
  );
  latenciesMicros.sort((a, b) => a - b);
  return { name, callers, operations: latenciesMicros.length, seconds: (performance.now() - started) / 1000, latenciesMicros };
}

async function measurePings(db: Db): Promise<number[]> {
  // Unsorted: callers merge several rounds before taking percentiles.
  const samples: number[] = [];
  for (let i = 0; i < PING_SAMPLES; i++) {
    const begin = performance.now();
    await db.command({ ping: 1 });
    samples.push((performance.now() - begin) * 1000);
  }
  return samples;
}

async function embeddedStatus(db: Db): Promise<Document> {
  const status = await db.admin().command({ serverStatus: 1 });
  const cpuMicros = status.extra_info.user_time_us + status.extra_info.system_time_us;
  return { ...(status.embedded as Document), cpuMicros };
}

function commandTiming(status: Document, command: string): { count: number; totalMicros: number; socketWriteMicros: number } {
  return (status.commands as Document)[command] ?? { count: 0, totalMicros: 0, socketWriteMicros: 0 };
}

function row(cells: (string | number)[]): string {
  return cells.map((cell, index) => (index === cells.length - 1 ? `  ${cell}` : String(cell).padStart(index === 0 ? 16 : 9))).join(' ');
}

async function main(): Promise<void> {
  const dbPath = await mkdtemp(join(tmpdir(), 'lumibase-bench-'));
  const server = await startServer(dbPath);
  const client = await MongoClient.connect(server.uri, { maxPoolSize: 80, minPoolSize: 64 });
  const db = client.db('bench');
  const items = db.collection<{ _id: number; title: string; tags: string[]; n: number }>('items');
  try {
    for (let start = 0; start < SEED_DOCUMENTS; start += 1000) {
      await items.insertMany(
        Array.from({ length: 1000 }, (_, i) => ({ _id: start + i, title: `item ${start + i}`, tags: ['a', 'b'], n: start + i })),
      );
    }
    // Warm the pool and the JIT so the first phase does not pay for them.
    await Promise.all(Array.from({ length: 64 }, (_, i) => items.findOne({ _id: i })));

    const lines: string[] = [row(['phase', 'callers', 'ops/s', 'p50 µs', 'p99 µs', 'extra'])];
    const report = (result: PhaseResult, extra: string) =>
      lines.push(
        row([
          result.name,
          result.callers,
          Math.round(result.operations / result.seconds),
          percentile(result.latenciesMicros, 0.5).toFixed(0),
          percentile(result.latenciesMicros, 0.99).toFixed(0),
          extra,
        ]),
      );
    // Pings are sampled before, between and after the find phases, so they see the same machine load.
    const pings: number[] = await measurePings(db);
    const findPhases: { result: PhaseResult; serverMicros: number; writeMicros: number; cpuMicros: number }[] = [];
    for (const callers of [1, 64]) {
      const statusBefore = await embeddedStatus(db);
      const result = await runPhase('find by _id', callers, () => items.findOne({ _id: Math.floor(Math.random() * SEED_DOCUMENTS) }));
      const statusAfter = await embeddedStatus(db);
      const before = commandTiming(statusBefore, 'find');
      const after = commandTiming(statusAfter, 'find');
      const finds = after.count - before.count;
      // Server time: whole frame → encoded reply. Then the socket write syscall, and the server
      // process's total CPU per find (including polling, reads, writes and GC).
      const serverMicros = (after.totalMicros - before.totalMicros) / finds;
      const writeMicros = (after.socketWriteMicros - before.socketWriteMicros) / finds;
      const cpuMicros = (statusAfter.cpuMicros - statusBefore.cpuMicros) / finds;
      findPhases.push({ result, serverMicros, writeMicros, cpuMicros });
      pings.push(...(await measurePings(db)));
    }
    pings.sort((a, b) => a - b);
    const pingMicros = percentile(pings, 0.5);
    lines.push(row(['ping (rtt)', 1, Math.round(1e6 / pingMicros), pingMicros.toFixed(0), percentile(pings, 0.99).toFixed(0), '']));
    const summary: Document = { pingMicros, finds: [], inserts: [] };
    for (const { result, serverMicros, writeMicros, cpuMicros } of findPhases) {
      const ratio = ((serverMicros / pingMicros) * 100).toFixed(1);
      summary.finds.push({
        callers: result.callers,
        opsPerSecond: result.operations / result.seconds,
        p50Micros: percentile(result.latenciesMicros, 0.5),
        serverMicros,
        cpuMicros,
      });
      report(
        result,
        `server ${serverMicros.toFixed(1)} µs = ${ratio}% of ping; +write ${writeMicros.toFixed(1)} µs; process cpu ${cpuMicros.toFixed(1)} µs`,
      );
    }

    let nextId = SEED_DOCUMENTS;
    for (const callers of [1, 64]) {
      const before = await embeddedStatus(db);
      const result = await runPhase('insert (fsync)', callers, () => items.insertOne({ _id: nextId++, title: 'new', tags: [], n: 0 }));
      const after = await embeddedStatus(db);
      const journalBefore = (before.storage as Document).journal as Document;
      const journalAfter = (after.storage as Document).journal as Document;
      const fsyncShare = (journalAfter.fsyncMicros - journalBefore.fsyncMicros) / 1e6 / result.seconds;
      const flushes = journalAfter.flushes - journalBefore.flushes;
      const averageBatch = (journalAfter.commits - journalBefore.commits) / flushes;
      report(result, `fsync ${(fsyncShare * 100).toFixed(0)}% of time, batch avg ${averageBatch.toFixed(1)} max ${journalAfter.maxBatch}`);
      summary.inserts.push({
        callers,
        opsPerSecond: result.operations / result.seconds,
        p50Micros: percentile(result.latenciesMicros, 0.5),
      });
    }
    if (JSON_OUT) await writeFile(JSON_OUT, JSON.stringify(summary));

    console.log(
      `embedded mongo benchmark: ${PHASE_MS} ms per phase, ${SEED_DOCUMENTS} documents, durable mode, server ${IN_PROCESS ? 'in-process' : 'in a child process'}`,
    );
    for (const line of lines) console.log(line);
  } finally {
    await client.close();
    await server.stop();
    await rm(dbPath, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

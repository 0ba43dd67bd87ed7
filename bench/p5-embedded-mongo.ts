// P5: the embedded MongoDB benchmark as it always ran (embedded-mongo/bench), its figures as rows here:
// a find by _id against a ping round trip to the same server, at 1 and 64 callers.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchRow, row } from './lib/report.js';
import { QUICK } from './lib/settings.js';

const BENCH = fileURLToPath(new URL('../embedded-mongo/bench/embedded-mongo.bench.ts', import.meta.url));

interface Summary {
  pingMicros: number;
  finds: Array<{ callers: number; p50Micros: number; serverMicros: number; opsPerSecond: number }>;
  inserts: Array<{ callers: number; opsPerSecond: number; p50Micros: number }>;
}

export async function runP5(): Promise<{ rows: BenchRow[]; details: Record<string, unknown> }> {
  const directory = await mkdtemp(join(tmpdir(), 'lumibase-bench-p5-'));
  const output = join(directory, 'embedded-mongo.json');
  try {
    const env = { ...process.env, BENCH_JSON: output, ...(QUICK ? { BENCH_PHASE_MS: '300', BENCH_PING_SAMPLES: '300' } : {}) };
    const exitCode = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', BENCH], { env, stdio: ['ignore', 'inherit', 'inherit'] });
      const timer = setTimeout(() => child.kill('SIGKILL'), QUICK ? 60_000 : 300_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    if (exitCode !== 0) throw new Error(`the embedded MongoDB bench exited with ${exitCode}`);
    const summary = JSON.parse(await readFile(output, 'utf8')) as Summary;
    const rows = summary.finds.map((find) =>
      row({
        id: 'P5',
        name: `embedded find by _id, ${find.callers} caller${find.callers === 1 ? '' : 's'}: server time`,
        measured: find.serverMicros,
        baseline: summary.pingMicros,
        unit: 'µs vs ping',
        note: `${Math.round(find.opsPerSecond)} finds/s, client p50 ${find.p50Micros.toFixed(0)} µs`,
      }),
    );
    const single = summary.finds.find((find) => find.callers === 1);
    if (single)
      rows.push(
        row({
          id: 'P5',
          name: 'embedded find by _id, 1 caller: client p50',
          measured: single.p50Micros,
          baseline: summary.pingMicros,
          unit: 'µs vs ping',
        }),
      );
    return { rows, details: summary as unknown as Record<string, unknown> };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

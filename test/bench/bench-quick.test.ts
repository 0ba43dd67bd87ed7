// The quick benchmark (BENCH_QUICK=1) runs in CI so that `npm run bench` cannot rot: it must finish, print a
// row for every P of issue 18 and write JSON whose ratios are finite numbers. Goals are reported, not asserted.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../support/processes.js';

const directory = mkdtempSync(join(tmpdir(), 'lumibase-bench-quick-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

interface BenchJson {
  quick: boolean;
  rows: Array<{ id: string; name: string; ratio?: number; measured?: number; baseline?: number; unavailable?: string }>;
  failures: string[];
  machine: { cpus: number };
}

function runQuickBench(out: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts/bench.mjs')], {
      cwd: ROOT,
      env: { ...process.env, BENCH_QUICK: '1', BENCH_OUT: out },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    // Bounded: a hung bench is killed and fails the test rather than the run.
    const timer = setTimeout(() => child.kill('SIGKILL'), 540_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

it('runs every benchmark of issue 18 at the quick size, prints each row and writes finite ratios as JSON', {
  timeout: 600_000,
}, async () => {
  const out = join(directory, 'bench.json');
  const { code, output } = await runQuickBench(out);
  expect(code, output).toBe(0);
  for (const id of ['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7', 'P8']) expect(output).toMatch(new RegExp(`^${id}\\s`, 'm'));

  const json = JSON.parse(readFileSync(out, 'utf8')) as BenchJson;
  expect(json.quick).toBe(true);
  expect(json.failures).toEqual([]);
  expect(json.machine.cpus).toBeGreaterThan(0);
  expect(new Set(json.rows.map((row) => row.id))).toEqual(new Set(['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7', 'P8']));
  for (const row of json.rows.filter((entry) => entry.unavailable === undefined)) {
    expect(Number.isFinite(row.ratio), `${row.id} ${row.name}: ratio ${row.ratio}`).toBe(true);
    expect(Number.isFinite(row.measured) && Number.isFinite(row.baseline), `${row.id} ${row.name}`).toBe(true);
  }
});

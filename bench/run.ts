// `npm run bench`: P1–P8 of issue 18, each a ratio against a baseline measured in the same run on the same
// machine with the same payload (medians of 5 repetitions). Prints a table and writes JSON (BENCH_OUT,
// default bench-results/bench.json). BENCH_QUICK=1: small sizes, under a minute, run by `npm test`.
import { join } from 'node:path';
import { stopChildren } from './lib/children.js';
import { formatTable, machine, type Row, writeJson } from './lib/report.js';
import { QUICK, REPETITIONS } from './lib/settings.js';
import { startSystem, type System } from './lib/system.js';
import { runP1 } from './p1-harness.js';
import { runP2 } from './p2-fanout.js';
import { runP3 } from './p3-decide-throughput.js';
import { runP4 } from './p4-approvals-list.js';
import { runP5 } from './p5-embedded-mongo.js';
import { runP6 } from './p6-capacity.js';
import { runP7 } from './p7-decide-latency.js';
import { runP8 } from './p8-search.js';

/** BENCH_ONLY=P2,P7: run only these (by hand, while working on one path). */
const ONLY = process.env.BENCH_ONLY?.split(',').map((id) => id.trim().toUpperCase());
const OUT = process.env.BENCH_OUT ?? join(import.meta.dirname, '..', 'bench-results', 'bench.json');

async function main(): Promise<number> {
  const started = Date.now();
  const rows: Row[] = [];
  const details: Record<string, unknown> = {};
  const failures: string[] = [];
  const stage = async <T extends { rows: Row[]; details: Record<string, unknown> }>(
    id: string,
    run: () => Promise<T>,
  ): Promise<T | undefined> => {
    if (ONLY && !ONLY.includes(id)) return undefined;
    const begun = Date.now();
    console.log(`--> ${id}`);
    try {
      const result = await run();
      rows.push(...result.rows);
      details[id] = { ...result.details, seconds: (Date.now() - begun) / 1000 };
      return result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`${id} failed:`, error);
      failures.push(`${id}: ${message}`);
      rows.push({ id, name: 'failed', unavailable: `failed: ${message.split('\n')[0]}` });
      return undefined;
    }
  };

  await stage('P5', runP5);
  let system: System | undefined;
  try {
    if (ONLY?.every((id) => id === 'P5')) return failures.length === 0 ? 0 : 1;
    console.log('--> starting MongoDB, two API servers and a worker');
    system = await startSystem();
    const sut = system;
    await stage('P1', () => runP1(sut));
    await stage('P2', () => runP2(sut));
    const p7 = await stage('P7', () => runP7(sut));
    await stage('P3', () => runP3(sut, p7?.counts.mongoWrites ?? 14));
    await stage('P4', () => runP4(sut));
    await stage('P6', () => runP6(sut));
    await stage('P8', () => runP8(sut));
  } finally {
    await stopChildren();
    await system?.stop();
  }

  const order = ['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7', 'P8'];
  rows.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
  const host = machine();
  console.log(
    `\nLumiBase bench (${QUICK ? 'quick' : 'full'}): every ratio = LumiBase / baseline, medians of ${REPETITIONS} repetitions, same run; ` +
      `${host.cpus} × ${host.cpuModel}, load ${JSON.stringify(host.loadAverage)}`,
  );
  console.log(formatTable(rows));
  const seconds = (Date.now() - started) / 1000;
  console.log(`\n${seconds.toFixed(1)} s; JSON in ${OUT}`);
  writeJson(OUT, {
    quick: QUICK,
    repetitions: REPETITIONS,
    startedAt: new Date(started).toISOString(),
    seconds,
    machine: host,
    rows,
    details,
    failures,
  });
  return failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    console.error(error);
    await stopChildren();
    process.exit(1);
  },
);

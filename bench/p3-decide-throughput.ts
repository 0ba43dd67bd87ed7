// P3: decide → approved through BullMQ at the worker's concurrency, p50 and throughput, vs a bare pipeline
// doing the same number of Mongo writes (one before the queue, the rest in the job) around a bare BullMQ
// add → process, behind a bare Express route; both driven by the same load-generator process.
import { randomBytes } from 'node:crypto';
import { type BenchRow, row } from './lib/report.js';
import { startChild } from './lib/children.js';
import { REPETITIONS, SETTINGS } from './lib/settings.js';
import { alternate, percentile } from './lib/stats.js';
import type { System } from './lib/system.js';

/** WORKER_CONCURRENCY's default, which the cluster's worker runs with. */
const CONCURRENCY = 4;

interface LoadAnswer {
  latencies: number[];
  statuses: Record<string, number>;
  seconds: number;
}

export async function runP3(system: System, mongoWrites: number): Promise<{ rows: BenchRow[]; details: Record<string, unknown> }> {
  const site = await system.newSite();
  const [serverA] = system.servers;
  const load = startChild('http-load.ts', { lifetimeMs: SETTINGS.childLifetimeMs });
  const bare = startChild('bare-api.ts', {
    lifetimeMs: SETTINGS.childLifetimeMs,
    env: {
      MONGODB_URI: system.cluster.mongoUri,
      MONGODB_DB: `cluster_${system.cluster.prefix}`,
      REDIS_URL: system.cluster.redisUrl,
      QUEUE_PREFIX: `${system.cluster.prefix}-bare`,
      WORKER_CONCURRENCY: String(CONCURRENCY),
    },
  });
  const count = SETTINGS.p3Approvals;
  const writes = Math.max(1, Math.round(mongoWrites));
  let batch = 0;
  try {
    const { url: bareUrl } = await bare.ask<{ url: string }>('listen');
    const lumibase: LoadAnswer[] = [];
    const baseline: LoadAnswer[] = [];
    const run = async (requests: unknown[]) => load.ask<LoadAnswer>('run', { requests, concurrency: CONCURRENCY }, 300_000);
    const result = await alternate(
      REPETITIONS,
      async () => {
        const ids: string[] = [];
        for (let index = 0; index < count; index++)
          ids.push((await site.admin.chat(site.siteId, `create collection p3b${batch}n${index}`)).approvalId);
        batch++;
        const answer = await run(
          ids.map((id) => ({
            method: 'POST',
            url: `${serverA}/api/v1/ai/approvals/${id}/decide`,
            headers: { authorization: `Bearer ${site.approver.token}`, 'x-site-id': site.siteId },
            body: { decision: 'approved' },
          })),
        );
        if (answer.statuses['200'] !== count) throw new Error(`P3 decide statuses ${JSON.stringify(answer.statuses)}`);
        lumibase.push(answer);
        return percentile(answer.latencies, 0.5);
      },
      async () => {
        const answer = await run(
          Array.from({ length: count }, () => ({
            method: 'POST',
            url: `${bareUrl}/pipeline`,
            body: { id: randomBytes(6).toString('hex'), before: 1, after: writes - 1 },
          })),
        );
        if (answer.statuses['200'] !== count) throw new Error(`P3 bare statuses ${JSON.stringify(answer.statuses)}`);
        baseline.push(answer);
        return percentile(answer.latencies, 0.5);
      },
    );
    const throughput = (answers: LoadAnswer[]) => {
      const rates = answers.map((answer) => answer.latencies.length / answer.seconds).sort((a, b) => a - b);
      return rates[Math.floor(rates.length / 2)] as number;
    };
    const note = `${count} approvals × ${REPETITIONS}, concurrency ${CONCURRENCY}; bare does ${writes} writes`;
    return {
      rows: [
        row({
          id: 'P3',
          name: 'decide → approved p50',
          measured: result.measured,
          baseline: result.baseline,
          unit: 'ms',
          goal: { op: '<=', value: 1.5 },
          note,
        }),
        row({
          id: 'P3',
          name: 'decide → approved throughput',
          measured: throughput(lumibase),
          baseline: throughput(baseline),
          unit: 'approvals/s',
          goal: { op: '>=', value: 0.5 },
        }),
      ],
      details: { p50Runs: result, throughput: { lumibase: lumibase.map((a) => a.seconds), baseline: baseline.map((a) => a.seconds) } },
    };
  } finally {
    await Promise.all([load.stop(), bare.stop()]);
  }
}

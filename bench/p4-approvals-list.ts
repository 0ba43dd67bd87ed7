// P4: GET /ai/approvals requests/s (bearer session, tenancy, 100 pending rows) vs a bare Express route
// doing the same session lookup, membership check and query through the driver.
import { type BenchRow, row } from './lib/report.js';
import { startChild } from './lib/children.js';
import { REPETITIONS, SETTINGS } from './lib/settings.js';
import { alternate } from './lib/stats.js';
import type { System } from './lib/system.js';

const ROWS = 100;
const ASKING_AT_ONCE = 8;

export async function runP4(system: System): Promise<{ rows: BenchRow[]; details: Record<string, unknown> }> {
  const site = await system.newSite();
  const [serverA] = system.servers;
  for (let start = 0; start < ROWS; start += ASKING_AT_ONCE)
    await Promise.all(
      Array.from({ length: Math.min(ASKING_AT_ONCE, ROWS - start) }, (_, index) =>
        site.admin.chat(site.siteId, `create collection p4c${start + index}`),
      ),
    );
  const load = startChild('http-load.ts', { lifetimeMs: SETTINGS.childLifetimeMs });
  const bare = startChild('bare-api.ts', {
    lifetimeMs: SETTINGS.childLifetimeMs,
    env: {
      MONGODB_URI: system.cluster.mongoUri,
      MONGODB_DB: `cluster_${system.cluster.prefix}`,
      REDIS_URL: system.cluster.redisUrl,
      QUEUE_PREFIX: `${system.cluster.prefix}-bare4`,
    },
  });
  try {
    const { url: bareUrl } = await bare.ask<{ url: string }>('listen');
    const headers = { authorization: `Bearer ${site.approver.token}`, 'x-site-id': site.siteId };
    const listed = await site.approver.expect<unknown[]>(200, 'GET', '/ai/approvals', { siteId: site.siteId });
    if (listed.length !== ROWS) throw new Error(`P4 expected ${ROWS} pending approvals, listed ${listed.length}`);
    const rate = (url: string) => async () => {
      const answer = await load.ask<{ latencies: number[]; statuses: Record<string, number>; seconds: number }>(
        'run',
        { requests: [{ method: 'GET', url, headers }], concurrency: SETTINGS.p4Concurrency, durationMs: SETTINGS.p4Ms },
        60_000,
      );
      const ok = answer.statuses['200'] ?? 0;
      if (ok !== answer.latencies.length) throw new Error(`P4 ${url} statuses ${JSON.stringify(answer.statuses)}`);
      return ok / answer.seconds;
    };
    // Warm both (JIT, pools).
    await rate(`${serverA}/api/v1/ai/approvals`)();
    await rate(`${bareUrl}/approvals`)();
    const result = await alternate(REPETITIONS, rate(`${serverA}/api/v1/ai/approvals`), rate(`${bareUrl}/approvals`));
    return {
      rows: [
        row({
          id: 'P4',
          name: `GET /ai/approvals (${ROWS} rows)`,
          measured: result.measured,
          baseline: result.baseline,
          unit: 'req/s',
          goal: { op: '>=', value: 0.8 },
          note: `concurrency ${SETTINGS.p4Concurrency}, ${SETTINGS.p4Ms} ms × ${REPETITIONS}`,
        }),
      ],
      details: { runs: result },
    };
  } finally {
    await Promise.all([load.stop(), bare.stop()]);
  }
}

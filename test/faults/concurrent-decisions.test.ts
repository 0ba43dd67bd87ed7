// R4: 50 concurrent decisions of one approval, spread over two API server processes, iteration after iteration:
// exactly one decision wins, and an approved approval runs exactly once (one job, one audited execution, one effect).
import { SKILL_EXECUTION_QUEUE } from '@lumibase/shared';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { until } from '../support/poll.js';
import { stopAll } from '../support/processes.js';
import { faultSize, faultTimeout, seededRandom } from './fault-size.js';

const ITERATIONS = faultSize(20, 200);
const CONCURRENT = 50;

const cluster = new Cluster({ env: { DECIDE_WAIT_MS: '5000', CHAT_RATE_LIMIT_PER_MINUTE: '10000' } });
let servers: string[];
let superadmin: ApiClient;

beforeAll(async () => {
  await cluster.startMongo();
  servers = [await cluster.startServer(), await cluster.startServer()];
  await cluster.startWorker();
  superadmin = await ApiClient.signIn(servers[0]!, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  await cluster.stop();
  await stopAll();
});

describe(`${CONCURRENT} concurrent decisions of one approval across two servers`, () => {
  it(
    `has exactly one winner and one execution, ${ITERATIONS} times`,
    async () => {
      const random = seededRandom('concurrent-decisions');
      const siteId = await superadmin.createSite('Concurrent decisions');
      const [admin, approver] = [await superadmin.createMember(siteId, 'admin'), await superadmin.createMember(siteId, 'admin')];
      const outcomes: Array<{ approvalId: string; name: string; winner: 'approved' | 'rejected' }> = [];

      for (let iteration = 0; iteration < ITERATIONS; iteration++) {
        const name = `once_${iteration}`;
        const { approvalId, status } = await admin.via(servers[iteration % 2]!).chat(siteId, `create collection ${name}`);
        expect(status).toBe('pending_approval');
        // Every other iteration only approvals; the others with rejections racing them. Whichever lands first wins, the others are 409.
        const rejecting = iteration % 2 === 1 ? 0.2 : 0;
        const decisions = Array.from({ length: CONCURRENT }, () => (random.next() < rejecting ? 'rejected' : 'approved'));
        const responses = await Promise.all(
          decisions.map((decision, index) =>
            approver
              .via(servers[index % 2]!)
              .request('POST', `/ai/approvals/${approvalId}/decide`, {
                siteId,
                body: decision === 'approved' ? { decision } : { decision, reason: 'racing' },
              })
              .then((response) => ({ decision, response })),
          ),
        );
        const winners = responses.filter(({ response }) => response.status === 200 || response.status === 202);
        const losers = responses.filter(({ response }) => response.status === 409);
        expect(winners, `iteration ${iteration}: ${JSON.stringify(responses.map(({ response }) => response.status))}`).toHaveLength(1);
        expect(losers).toHaveLength(CONCURRENT - 1);
        for (const { response } of losers) expect(response.body.error.code).toBeTypeOf('string');
        outcomes.push({ approvalId, name, winner: winners[0]!.decision as 'approved' | 'rejected' });
      }

      // Every approval settles in the winner's final state.
      for (const { approvalId, winner } of outcomes) {
        const approval = await until(
          () => approver.expect(200, 'GET', `/ai/approvals/${approvalId}`, { siteId }),
          (found) => found.status !== 'executing',
          { timeoutMs: 60_000, what: `approval ${approvalId} settled` },
        );
        expect(approval).toMatchObject({ id: approvalId, status: winner, attempts: winner === 'approved' ? 1 : 0 });
      }

      // One effect per approved approval, none for a rejected one.
      const collections = await admin.expect<Array<{ name: string }>>(200, 'GET', '/collections?limit=100', { siteId });
      const names = collections.map((collection) => collection.name).sort();
      expect(names).toEqual(
        outcomes
          .filter(({ winner }) => winner === 'approved')
          .map(({ name }) => name)
          .sort(),
      );

      // One audited execution (or rejection) each; the chain verifies.
      const audit = await approver.expect<Array<{ action: string; approvalId?: string }>>(200, 'GET', `/ai/audit?limit=100`, { siteId });
      const auditAll = [...audit];
      for (let offset = 100; auditAll.length === offset; offset += 100)
        auditAll.push(...(await approver.expect<typeof audit>(200, 'GET', `/ai/audit?limit=100&offset=${offset}`, { siteId })));
      for (const { approvalId, winner } of outcomes) {
        const actions = auditAll.filter((entry) => entry.approvalId === approvalId).map((entry) => entry.action);
        expect(actions.sort(), approvalId).toEqual(['approval_requested', winner].sort());
      }
      expect(await approver.expect(200, 'GET', '/ai/audit/verify', { siteId })).toMatchObject({ valid: true });

      // One job per approved approval, none for a rejected one.
      const queue = new Queue(SKILL_EXECUTION_QUEUE, { connection: { url: cluster.redisUrl } as never, prefix: cluster.prefix });
      try {
        const jobs = await queue.getJobs(['completed', 'failed', 'active', 'waiting', 'delayed', 'prioritized']);
        for (const { approvalId, winner } of outcomes) {
          const ids = jobs.filter((job) => job.data.approvalId === approvalId).map((job) => job.id);
          expect(ids, approvalId).toEqual(winner === 'approved' ? [`${approvalId}-1`] : []);
        }
      } finally {
        await queue.close();
      }
      const approved = outcomes.filter(({ winner }) => winner === 'approved').length;
      console.info(
        `concurrent-decisions: ${ITERATIONS} iterations × ${CONCURRENT} decisions; ${approved} approved, ${ITERATIONS - approved} rejected`,
      );
    },
    faultTimeout(120_000, 900_000),
  );
});

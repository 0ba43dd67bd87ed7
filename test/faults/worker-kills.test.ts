// R1: skill-execution workers SIGKILLed at random points of approved jobs (before, inside and after the skill, before
// the approval is settled), over and over: every approval ends approved once, each effect exists once, one execution
// in the audit, one revision per item change, and the audit chain verifies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { sleep, until } from '../support/poll.js';
import { type StartedProcess, stopAll } from '../support/processes.js';
import { faultSize, faultTimeout, seededRandom } from './fault-size.js';

const KILLS = faultSize(20, 100);
/** Short, so that a new worker takes a killed worker's job over soon (BullMQ's lock and stalled check). */
const JOB_LOCK_MS = 1000;

const cluster = new Cluster({
  env: { DECIDE_WAIT_MS: '100', JOB_LOCK_MS: String(JOB_LOCK_MS), RECONCILE_INTERVAL_MS: '1000', CHAT_RATE_LIMIT_PER_MINUTE: '10000' },
});
let server: string;
let superadmin: ApiClient;

beforeAll(async () => {
  await cluster.startMongo();
  server = await cluster.startServer();
  superadmin = await ApiClient.signIn(server, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  await cluster.stop();
  await stopAll();
});

type Planned =
  | { kind: 'collection'; approvalId: string; name: string }
  | { kind: 'field'; approvalId: string; name: string }
  | { kind: 'deleteItem'; approvalId: string; itemId: string };

/** Where in its job a killed worker was, read from its own log lines. */
function phaseOf(worker: StartedProcess): string {
  const output = worker.output();
  const started = (output.match(/skill-execution job started/g) ?? []).length;
  const done = (output.match(/skill-execution job done/g) ?? []).length;
  if (started === 0) return 'before any job';
  return started > done ? 'inside a job' : 'between jobs';
}

describe('workers SIGKILLed at random points of approved jobs', () => {
  it(
    `end every approval approved, with each effect, execution and revision once (${KILLS} kills)`,
    async () => {
      const random = seededRandom('worker-kills');
      const siteId = await superadmin.createSite('Worker kills');
      const admin = await superadmin.createMember(siteId, 'admin');
      await admin.expect(201, 'POST', '/collections', { siteId, body: { name: 'posts', fields: [{ name: 'title', type: 'string' }] } });
      const items: string[] = [];
      for (let index = 0; index < KILLS; index++)
        items.push(
          (await admin.expect<{ id: string }>(201, 'POST', '/items/posts', { siteId, body: { data: { title: `t${index}` } } })).id,
        );

      const startWorker = () =>
        // Each worker pauses at its own random points, so that kills land before, inside and after skills.
        cluster.startWorker({
          FAULT_DELAY_BEFORE_SKILL_MS: String(random.int(0, 600)),
          FAULT_DELAY_AFTER_SKILL_MS: String(random.int(0, 600)),
        });
      const planned: Planned[] = [];
      const phases: Record<string, number> = {};
      // Two workers at a time, both killed each round at their own random moments while their replacements start
      // (the starts overlap the round's work, and two kills cost one start's wait).
      let live = await Promise.all([startWorker(), startWorker()]);
      const startedAt = Date.now();
      let kills = 0;
      for (let round = 0; kills < KILLS; round++) {
        const next = Promise.all([startWorker(), startWorker()]);
        const asks: Array<[string, (approvalId: string) => Planned]> = [
          [`create collection k${round}`, (approvalId) => ({ kind: 'collection', approvalId, name: `k${round}` })],
          [`add field f${round} to posts`, (approvalId) => ({ kind: 'field', approvalId, name: `f${round}` })],
          [`delete item ${items[2 * round]} from posts`, (approvalId) => ({ kind: 'deleteItem', approvalId, itemId: items[2 * round]! })],
          [
            `delete item ${items[2 * round + 1]} from posts`,
            (approvalId) => ({ kind: 'deleteItem', approvalId, itemId: items[2 * round + 1]! }),
          ],
        ];
        for (const [message, plan] of asks) {
          const reply = await admin.chat(siteId, message);
          expect(reply.status, message).toBe('pending_approval');
          planned.push(plan(reply.approvalId));
          const decided = await admin.request('POST', `/ai/approvals/${reply.approvalId}/decide`, {
            siteId,
            body: { decision: 'approved' },
          });
          expect([200, 202], JSON.stringify(decided.body)).toContain(decided.status);
        }
        const killed = await Promise.all(
          live.map(async (worker) => {
            await sleep(random.int(0, 1500));
            const phase = phaseOf(worker);
            phases[phase] = (phases[phase] ?? 0) + 1;
            await worker.stop('SIGKILL');
            return phase;
          }),
        );
        kills += killed.length;
        live = await next;
        console.info(`worker-kills: ${kills}/${KILLS} killed (${killed.join(', ')}), ${Date.now() - startedAt} ms in`);
      }

      // The last two workers live: every approval settles.
      for (const plan of planned) {
        const approval = await until(
          () => admin.expect(200, 'GET', `/ai/approvals/${plan.approvalId}`, { siteId }),
          (found) => found.status !== 'executing',
          { timeoutMs: 60_000, intervalMs: 250, what: `approval ${plan.approvalId} (${plan.kind}) settled` },
        );
        expect(approval, JSON.stringify(approval)).toMatchObject({ status: 'approved', attempts: 1 });
        expect(approval.lastError).toBeUndefined();
      }

      // Each effect exists once.
      const collections = await admin.expect<Array<{ name: string; fields: Array<{ name: string }> }>>(
        200,
        'GET',
        '/collections?limit=100',
        { siteId },
      );
      const collectionNames = collections.map((collection) => collection.name).sort();
      const wantedCollections = planned.filter((plan) => plan.kind === 'collection').map((plan) => (plan as { name: string }).name);
      expect(collectionNames).toEqual(['posts', ...wantedCollections].sort());
      const fields = collections.find((collection) => collection.name === 'posts')!.fields.map((field) => field.name);
      const wantedFields = planned.filter((plan) => plan.kind === 'field').map((plan) => (plan as { name: string }).name);
      expect(fields.sort()).toEqual(['title', ...wantedFields].sort());
      const left = await admin.expect<Array<{ id: string }>>(200, 'GET', '/items/posts?limit=100', { siteId });
      expect(left).toEqual([]);

      // One revision per change: created, then deleted once, by its approval.
      for (const plan of planned) {
        if (plan.kind !== 'deleteItem') continue;
        const revisions = await admin.expect<Array<{ revision: number; action: string; via: string; approvalId?: string }>>(
          200,
          'GET',
          `/items/posts/${plan.itemId}/revisions`,
          { siteId },
        );
        expect(
          revisions.map(({ revision, action, via, approvalId }) => ({ revision, action, via, approvalId })),
          plan.itemId,
        ).toEqual([
          { revision: 2, action: 'deleted', via: 'approval', approvalId: plan.approvalId },
          { revision: 1, action: 'created', via: 'rest', approvalId: undefined },
        ]);
      }

      // One execution per approval in the audit, and the chain verifies. A worker killed right after its settling
      // write leaves the audit entry owed on the approval: the reconciler's next pass (1 s) materialises it.
      type Audit = Array<{ action: string; approvalId?: string }>;
      const readAudit = async () => {
        const audit: Audit = [];
        for (let offset = 0; ; offset += 100) {
          const page = await admin.expect<Audit>(200, 'GET', `/ai/audit?limit=100&offset=${offset}`, { siteId });
          audit.push(...page);
          if (page.length < 100) return audit;
        }
      };
      const audit = await until(readAudit, (entries) => entries.filter((entry) => entry.action === 'approved').length >= planned.length, {
        timeoutMs: 15_000,
        intervalMs: 250,
        what: 'every settled approval audited',
      });
      for (const plan of planned) {
        const actions = audit.filter((entry) => entry.approvalId === plan.approvalId).map((entry) => entry.action);
        expect(actions.sort(), `${plan.kind} ${plan.approvalId}`).toEqual(['approval_requested', 'approved']);
      }
      expect(await admin.expect(200, 'GET', '/ai/audit/verify', { siteId })).toMatchObject({ valid: true });
      console.info(`worker-kills: ${KILLS} SIGKILLs over ${planned.length} approved jobs; killed ${JSON.stringify(phases)}`);
    },
    faultTimeout(600_000, 1_800_000),
  );
});

// A worker SIGKILLed after an approved skill took effect and before it settled the approval: a new worker finishes it once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { until } from '../support/poll.js';
import { stopAll } from '../support/processes.js';
import { connectSocket, connected, type RecordedEvent, type TestSocket } from '../support/socket-client.js';

/** Long enough to kill the worker inside it, even on a busy machine. */
const FAULT_DELAY_MS = 8000;
const JOB_LOCK_MS = 2000;

// DECIDE_WAIT_MS is short so that decide answers 202 `executing` while the first worker is still inside the skill.
const cluster = new Cluster({ env: { DECIDE_WAIT_MS: '300', JOB_LOCK_MS: String(JOB_LOCK_MS) } });
let server: string;
let socket: TestSocket | undefined;

beforeAll(async () => {
  await cluster.startMongo();
  server = await cluster.startServer();
});
afterAll(async () => {
  socket?.close();
  await cluster.stop();
  await stopAll();
});

const decidedEventOf = (approvalId: string) => (event: RecordedEvent) =>
  event.name === 'approval-decided' && event.payload.approval.id === approvalId;

describe('a skill-execution worker', () => {
  describe('when it is SIGKILLed after the skill took effect and before the approval was settled', () => {
    it('lets a new worker end the approval approved, with the collection created once and one audited execution', async () => {
      const firstWorker = await cluster.startWorker({ FAULT_DELAY_AFTER_SKILL_MS: String(FAULT_DELAY_MS) });
      const superadmin = await ApiClient.signIn(server, ADMIN_EMAIL, ADMIN_PASSWORD);
      const siteId = await superadmin.createSite('Worker crash');
      const admin = await superadmin.createMember(siteId, 'admin');
      socket = connectSocket(server, { token: admin.token, siteId, lastSeq: 0 });
      await connected(socket);

      const reply = await admin.chat(siteId, 'create collection crash_notes');
      expect(reply.status).toBe('pending_approval');
      const approvalId: string = reply.approvalId;

      const decidedAt = Date.now();
      const decided = await admin.request('POST', `/ai/approvals/${approvalId}/decide`, { siteId, body: { decision: 'approved' } });
      expect(decided.status).toBe(202);
      expect(decided.body.data).toMatchObject({ id: approvalId, status: 'executing', attempts: 1 });

      // The skill took effect: the collection is there, while the approval still says executing.
      await until(
        () => admin.expect<Array<{ name: string }>>(200, 'GET', '/collections', { siteId }),
        (collections) => collections.some((collection) => collection.name === 'crash_notes'),
        { what: 'the collection to exist' },
      );
      const effectAfterMs = Date.now() - decidedAt;
      expect(await admin.expect(200, 'GET', `/ai/approvals/${approvalId}`, { siteId })).toMatchObject({ status: 'executing' });
      await firstWorker.stop('SIGKILL');
      const killedAfterMs = Date.now() - decidedAt;
      expect(firstWorker.output()).toMatch(/skill-execution job started/);
      expect(firstWorker.output()).not.toMatch(/skill-execution job done/);
      expect(await admin.expect(200, 'GET', `/ai/approvals/${approvalId}`, { siteId })).toMatchObject({ status: 'executing', attempts: 1 });

      const secondStartedAt = Date.now();
      const secondWorker = await cluster.startWorker();
      const secondUpAt = Date.now();
      const secondUpAfterMs = secondUpAt - secondStartedAt;
      const settled = await until(
        () => admin.expect(200, 'GET', `/ai/approvals/${approvalId}`, { siteId }),
        (approval) => approval.status !== 'executing',
        { timeoutMs: 60_000, what: 'the approval to be settled' },
      );
      const settledAfterKillMs = Date.now() - decidedAt - killedAfterMs;
      const settledAfterUpMs = Date.now() - secondUpAt;
      expect(settled).toMatchObject({ id: approvalId, status: 'approved', attempts: 1, result: { name: 'crash_notes' } });
      expect(settled.lastError).toBeUndefined();
      // The new worker took the stalled job over (the same job id: it is one execution of one decision).
      const done = await secondWorker.waitForLine(/skill-execution job done/, 10_000);
      expect(JSON.parse(done)).toMatchObject({ jobId: `${approvalId}-1`, outcome: 'approved' });

      const collections = await admin.expect<Array<{ name: string }>>(200, 'GET', '/collections', { siteId });
      expect(collections.filter((collection) => collection.name === 'crash_notes')).toHaveLength(1);

      const audit = await admin.expect<Array<{ action: string; approvalId?: string }>>(200, 'GET', '/ai/audit?limit=100', { siteId });
      const ofApproval = audit.filter((entry) => entry.approvalId === approvalId).map((entry) => entry.action);
      expect(ofApproval.sort()).toEqual(['approval_requested', 'approved']);

      await socket.waitFor((event) => decidedEventOf(approvalId)(event) && event.payload.approval.status === 'approved');
      const statuses = socket.events.filter(decidedEventOf(approvalId)).map((event) => event.payload.approval.status);
      expect(statuses).toEqual(['executing', 'approved']);
      const seqs = socket.events.map((event) => event.payload.seq);
      expect(seqs).toEqual(seqs.map((_, index) => index + 1));
      const collectionEvents = socket.events.filter(
        (event) => event.name === 'content-changed' && event.payload.collection === 'crash_notes',
      );
      expect(collectionEvents.map((event) => event.payload.action)).toEqual(['created']);

      console.info(
        `worker-crash: collection visible ${effectAfterMs} ms after decide; worker killed at ${killedAfterMs} ms; ` +
          `new worker up in ${secondUpAfterMs} ms; approval approved ${settledAfterKillMs} ms after the kill, ${settledAfterUpMs} ms after the new worker was up ` +
          `(JOB_LOCK_MS ${JOB_LOCK_MS}, fault delay ${FAULT_DELAY_MS} ms)`,
      );
    });
  });
});

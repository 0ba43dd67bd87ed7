// Two API servers and one worker: approvals pushed across processes, executed once, seen by their site only.
import { SKILL_EXECUTION_QUEUE } from '@lumibase/shared';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { stopAll } from '../support/processes.js';
import { connectSocket, connected, type RecordedEvent, type TestSocket } from '../support/socket-client.js';

const cluster = new Cluster({ env: { DECIDE_WAIT_MS: '5000', CHAT_RATE_LIMIT_PER_MINUTE: '10000' } });
let serverA: string;
let serverB: string;
let superadmin: ApiClient;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  await cluster.startMongo();
  [serverA, serverB] = [await cluster.startServer(), await cluster.startServer()];
  await cluster.startWorker();
  superadmin = await ApiClient.signIn(serverA, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await cluster.stop();
  await stopAll();
});

async function siteWithAdmins() {
  const siteId = await superadmin.createSite(`Site ${Math.random().toString(36).slice(2, 8)}`);
  const [admin, approver] = [await superadmin.createMember(siteId, 'admin'), await superadmin.createMember(siteId, 'admin')];
  return { siteId, admin, approver };
}

async function watch(url: string, client: ApiClient, siteId: string, lastSeq?: number): Promise<TestSocket> {
  const socket = connectSocket(url, { token: client.token, siteId, ...(lastSeq === undefined ? {} : { lastSeq }) });
  sockets.push(socket);
  await connected(socket);
  return socket;
}

const approvalEvent = (approvalId: string, status?: string) => (event: RecordedEvent) =>
  event.name.startsWith('approval-') &&
  event.payload.approval.id === approvalId &&
  (status === undefined || event.payload.approval.status === status);

describe('with two API servers and one worker', () => {
  it("pushes an approval requested through server B to an approver on server A, then the worker's decided events; another site sees nothing", async () => {
    const { siteId, admin, approver } = await siteWithAdmins();
    const other = await siteWithAdmins();
    const onA = await watch(serverA, approver, siteId);
    const otherSite = await watch(serverA, other.approver, other.siteId);

    await admin.expect(201, 'POST', '/collections', { siteId, body: { name: 'news' } });
    const reply = await admin.via(serverB).chat(siteId, 'delete collection news');
    expect(reply.status).toBe('pending_approval');
    const created = await onA.waitFor(approvalEvent(reply.approvalId, 'pending'));
    expect(created.name).toBe('approval-created');
    expect(created.payload.approval).toMatchObject({ skillName: 'deleteCollection', arguments: { name: 'news' }, siteId });

    const decided = await approver
      .via(serverB)
      .expect(200, 'POST', `/ai/approvals/${reply.approvalId}/decide`, { siteId, body: { decision: 'approved' } });
    expect(decided, JSON.stringify(decided)).toMatchObject({ status: 'approved' });
    await onA.waitFor(approvalEvent(reply.approvalId, 'approved'));
    const statuses = onA.events.filter(approvalEvent(reply.approvalId)).map((event) => `${event.name}:${event.payload.approval.status}`);
    expect(statuses).toEqual(['approval-created:pending', 'approval-decided:executing', 'approval-decided:approved']);
    await onA.waitFor(
      (event) => event.name === 'content-changed' && event.payload.kind === 'collection' && event.payload.action === 'deleted',
    );

    const seqs = onA.events.map((event) => event.payload.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(otherSite.events).toEqual([]);
  });

  it('runs one of 50 concurrent approvals across both servers: one 200/202, the rest 409, one job, one execution', async () => {
    const { siteId, admin, approver } = await siteWithAdmins();
    await admin.expect(201, 'POST', '/collections', { siteId, body: { name: 'once' } });
    const { approvalId } = await admin.chat(siteId, 'delete collection once');
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        approver
          .via(index % 2 === 0 ? serverA : serverB)
          .request('POST', `/ai/approvals/${approvalId}/decide`, { siteId, body: { decision: 'approved' } }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 200 || status === 202)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(49);
    const approval = await approver.expect(200, 'GET', `/ai/approvals/${approvalId}`, { siteId });
    expect(approval).toMatchObject({ attempts: 1 });
    const audit = await approver.expect<Array<{ action: string; approvalId?: string }>>(200, 'GET', '/ai/audit?limit=100', { siteId });
    expect(audit.filter((entry) => entry.approvalId === approvalId && entry.action === 'approved')).toHaveLength(1);
    const queue = new Queue(SKILL_EXECUTION_QUEUE, { connection: { url: cluster.redisUrl } as never, prefix: cluster.prefix });
    const jobs = (await queue.getJobs(['completed', 'failed', 'active', 'waiting', 'delayed'])).filter(
      (job) => job.data.approvalId === approvalId,
    );
    await queue.close();
    expect(jobs.map((job) => job.id)).toEqual([`${approvalId}-1`]);
  });

  it('measures decide → approval-decided(approved) at a client over 100 approvals', async () => {
    const { siteId, admin, approver } = await siteWithAdmins();
    const onA = await watch(serverA, admin, siteId);
    const latencies: number[] = [];
    for (let index = 0; index < 100; index++) {
      const { approvalId } = await admin.via(serverB).chat(siteId, `create collection c${index}`);
      const started = performance.now();
      const decided = approver.via(index % 2 === 0 ? serverA : serverB).request('POST', `/ai/approvals/${approvalId}/decide`, {
        siteId,
        body: { decision: 'approved' },
      });
      await onA.waitFor(approvalEvent(approvalId, 'approved'));
      latencies.push(performance.now() - started);
      expect((await decided).status).toBe(200);
    }
    latencies.sort((a, b) => a - b);
    const median = latencies[50]!;
    console.log(
      `decide → approval-decided(approved) at a client over 100 approvals: median ${median.toFixed(1)} ms, p90 ${latencies[90]!.toFixed(1)} ms, max ${latencies[99]!.toFixed(1)} ms`,
    );
    const collections = await admin.expect<Array<{ name: string }>>(200, 'GET', '/collections?limit=100', { siteId });
    expect(collections.filter((collection) => /^c\d+$/.test(collection.name))).toHaveLength(100);
  });
});

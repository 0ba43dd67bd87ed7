// Redis unavailable at decide time: 503 and the approval stays pending; once Redis is back, deciding again works.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ResolvedRedis, redisAnswers, resolveRedis } from '../../server/src/infrastructure/resolve-redis.js';
import { createLogger } from '../../server/src/logger.js';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { type StartedProcess, stopAll, waitForHttp } from '../support/processes.js';
import { connectSocket, connected, type RecordedEvent, type TestSocket } from '../support/socket-client.js';

const dataDir = mkdtempSync(join(tmpdir(), 'lumibase-redis-down-'));
let firstRedis: ResolvedRedis | undefined;
let restartedRedis: ChildProcess | undefined;
let cluster: Cluster;
let server: string;
let worker: StartedProcess;
let socket: TestSocket | undefined;

beforeAll(async () => {
  // A Redis of this file's own (localPort 1: never the shared one), so stopping it disturbs no other test.
  firstRedis = await resolveRedis({ url: undefined, dataDir, logger: createLogger({ level: 'silent' }), localPort: 1 });
  // The workers' reconciler runs every second, so it also runs while Redis is down.
  cluster = new Cluster({ redisUrl: firstRedis.url, env: { DECIDE_WAIT_MS: '5000', RECONCILE_INTERVAL_MS: '1000' } });
  await cluster.startMongo();
  server = await cluster.startServer();
  worker = await cluster.startWorker();
});
afterAll(async () => {
  socket?.close();
  await cluster?.stop();
  await stopAll();
  await firstRedis?.stop();
  if (restartedRedis && restartedRedis.exitCode === null) {
    const exited = new Promise((done) => restartedRedis?.once('exit', done));
    restartedRedis.kill('SIGKILL');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** redis-server again on the same port, with the same data directory and AOF, as an operator would bring it back. */
async function restartRedis(url: string): Promise<ChildProcess> {
  const port = Number(new URL(url).port);
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    join(dataDir, 'redis'),
    '--appendonly',
    'yes',
    '--maxmemory-policy',
    'noeviction',
    '--save',
    '',
  ];
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await redisAnswers('127.0.0.1', port)) return child;
    if (child.exitCode !== null) break;
    await new Promise((wait) => setTimeout(wait, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not come back on port ${port}`);
}

/** Decide answers within a bound; a hang fails the test instead of timing it out. */
function decide(client: ApiClient, siteId: string, approvalId: string) {
  return Promise.race([
    client.request('POST', `/ai/approvals/${approvalId}/decide`, { siteId, body: { decision: 'approved' } }),
    new Promise<never>((_, fail) => setTimeout(() => fail(new Error('decide did not answer within 15 s')), 15_000)),
  ]);
}

const decidedEventOf = (approvalId: string) => (event: RecordedEvent) =>
  event.name === 'approval-decided' && event.payload.approval.id === approvalId;

describe('deciding an approval', () => {
  describe('while Redis is down', () => {
    it('answers 503 UNAVAILABLE and leaves the approval pending; once Redis is back, deciding again approves it', async () => {
      const superadmin = await ApiClient.signIn(server, ADMIN_EMAIL, ADMIN_PASSWORD);
      const siteId = await superadmin.createSite('Redis down');
      const admin = await superadmin.createMember(siteId, 'admin');
      const reply = await admin.chat(siteId, 'create collection redis_notes');
      expect(reply.status).toBe('pending_approval');
      const approvalId: string = reply.approvalId;
      const before = await admin.expect(200, 'GET', `/ai/approvals/${approvalId}`, { siteId });
      expect(before).toMatchObject({ status: 'pending', attempts: 0 });
      socket = connectSocket(server, { token: admin.token, siteId, lastSeq: 0 });
      await connected(socket);

      await firstRedis!.stop();
      await waitForHttp(`${server}/readyz`, { status: 503, timeoutMs: 10_000 });
      const downAt = Date.now();
      const refused = await decide(admin, siteId, approvalId);
      const refusedInMs = Date.now() - downAt;
      expect(refused.status).toBe(503);
      expect(refused.body.error).toMatchObject({ code: 'UNAVAILABLE' });
      const after = await admin.expect(200, 'GET', `/ai/approvals/${approvalId}`, { siteId });
      expect(after).toMatchObject({ status: 'pending', attempts: 0 });
      expect(after.decidedBy).toBeUndefined();
      // Nothing ran: no collection, no execution in the audit.
      expect(await admin.expect(200, 'GET', '/collections', { siteId })).toEqual([]);
      const auditWhileDown = await admin.expect<Array<{ action: string; approvalId?: string }>>(200, 'GET', '/ai/audit?limit=100', {
        siteId,
      });
      expect(auditWhileDown.filter((entry) => entry.approvalId === approvalId).map((entry) => entry.action)).toEqual([
        'approval_requested',
      ]);

      // Sign-in and the Copilot need Redis (rate limits): they answer 503 at once instead of hanging.
      const signIn = await Promise.race([
        fetch(`${server}/api/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'x@y.test', password: 'whatever-1' }),
        }),
        new Promise<never>((_, fail) => setTimeout(() => fail(new Error('sign-in did not answer within 5 s')), 5000)),
      ]);
      expect(signIn.status).toBe(503);
      const chat = await admin.request('POST', '/ai/chat', { siteId, body: { message: 'list collections' } });
      expect(chat.status).toBe(503);

      // Redis stays away a while: both processes go on retrying, and must neither exit nor stop answering.
      await new Promise((wait) => setTimeout(wait, 3000));
      expect((await fetch(`${server}/healthz`)).status).toBe(200);
      restartedRedis = await restartRedis(firstRedis!.url);
      const backAt = Date.now();
      await waitForHttp(`${server}/readyz`, { timeoutMs: 30_000 });
      // The server's and the worker's clients reconnect on their own; until then decide may still answer 503.
      let decided = await decide(admin, siteId, approvalId);
      let refusalsAfterRestart = 0;
      while (decided.status === 503 && Date.now() - backAt < 30_000) {
        refusalsAfterRestart++;
        await new Promise((wait) => setTimeout(wait, 250));
        decided = await decide(admin, siteId, approvalId);
      }
      expect([200, 202]).toContain(decided.status);
      let approval = decided.body.data;
      const deadline = Date.now() + 30_000;
      while (approval.status === 'executing' && Date.now() < deadline) {
        await new Promise((wait) => setTimeout(wait, 200));
        approval = await admin.expect(200, 'GET', `/ai/approvals/${approvalId}`, { siteId });
      }
      const approvedAfterMs = Date.now() - backAt;
      expect(approval).toMatchObject({ id: approvalId, status: 'approved', attempts: 1, result: { name: 'redis_notes' } });
      expect(approval.lastError).toBeUndefined();

      const collections = await admin.expect<Array<{ name: string }>>(200, 'GET', '/collections', { siteId });
      expect(collections.map((collection) => collection.name)).toEqual(['redis_notes']);
      const audit = await admin.expect<Array<{ action: string; approvalId?: string }>>(200, 'GET', '/ai/audit?limit=100', { siteId });
      expect(
        audit
          .filter((entry) => entry.approvalId === approvalId)
          .map((entry) => entry.action)
          .sort(),
      ).toEqual(['approval_requested', 'approved']);

      // A watching admin saw the decision that went through. The decision refused while Redis was down changed nothing
      // (the gate reads the site's policy version from Redis before it moves the approval), so it sent no event; one
      // refused just after the restart (the queue's connection not back yet) is undone, executing then pending again.
      await socket.waitFor((event) => decidedEventOf(approvalId)(event) && event.payload.approval.status === 'approved');
      const statuses = socket.events.filter(decidedEventOf(approvalId)).map((event) => event.payload.approval.status);
      expect(statuses.slice(-2)).toEqual(['executing', 'approved']);
      const undone = statuses.slice(0, -2);
      expect(undone).toEqual(undone.map((_, index) => (index % 2 === 0 ? 'executing' : 'pending')));
      const seqs = socket.events.map((event) => event.payload.seq);
      expect(seqs).toEqual(seqs.map((_, index) => index + 1));

      // Both processes lived through the outage.
      expect(cluster.servers[0]!.process.child.exitCode).toBeNull();
      expect(worker.child.exitCode).toBeNull();

      console.info(
        `redis-down: decide refused with 503 in ${refusedInMs} ms while Redis was down; after the restart, ` +
          `${refusalsAfterRestart} more 503s, then ${decided.status}; approved ${approvedAfterMs} ms after Redis came back`,
      );
    });
  });
});

// R2: Redis (a private one, without persistence) killed for seconds while chats, decisions, item writes (and with
// them embeddings) and webhook deliveries flow, then brought back empty: every answer is a 2xx for work that is
// stored or a 503 for work that is not; afterwards nothing is left `executing`, every owed event is in the site's
// gap-free log, every item is embedded and every webhook delivery of every event is done.
// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are asserted by shape.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { sleep, until } from '../support/poll.js';
import { stopAll } from '../support/processes.js';
import { connected, connectSocket } from '../support/socket-client.js';
import { faultSize, faultTimeout, seededRandom } from './fault-size.js';
import { PrivateRedis } from './private-redis.js';

/** How long Redis stays dead: the 5–20 s by hand, 5 s in CI. */
const DOWN_MS: [number, number] = [5000, faultSize(5000, 20_000)];
const WEBHOOK_EVENTS = ['approval-created', 'approval-decided', 'content-changed'];

const redis = new PrivateRedis();
let cluster: Cluster;
let server: string;
let receiver: Server;
let receiverUrl: string;
const received: Array<{ seq: number; event: string }> = [];

beforeAll(async () => {
  await redis.start();
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      try {
        const parsed = JSON.parse(body);
        received.push({ seq: parsed.seq ?? parsed.payload?.seq ?? parsed.data?.seq, event: parsed.event ?? parsed.name });
      } catch {
        // Whatever it was, it is not a delivery this test counts.
      }
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', listening));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  cluster = new Cluster({
    redisUrl: redis.url,
    env: {
      DECIDE_WAIT_MS: '2000',
      RECONCILE_INTERVAL_MS: '1000',
      EMBEDDINGS_DEBOUNCE_MS: '100',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      CHAT_RATE_LIMIT_PER_MINUTE: '10000',
    },
  });
  await cluster.startMongo();
  server = await cluster.startServer();
  await cluster.startWorker();
});
afterAll(async () => {
  await cluster?.stop();
  await stopAll();
  await redis.kill();
  await new Promise((closed) => receiver?.close(closed));
});

type Attempt = {
  what: 'chat' | 'decide' | 'item';
  status: number | string;
  ms: number;
  approvalId?: string;
  itemId?: string;
  title?: string;
};

describe('Redis killed while work flows', () => {
  it(
    'answers 2xx only for stored work and 503 otherwise, and leaves nothing undone once Redis is back',
    async () => {
      const random = seededRandom('redis-outage');
      const superadmin = await ApiClient.signIn(server, ADMIN_EMAIL, ADMIN_PASSWORD);
      const siteId = await superadmin.createSite('Redis outage');
      const admin = await superadmin.createMember(siteId, 'admin');
      await admin.expect(201, 'POST', '/webhooks', { siteId, body: { url: receiverUrl, events: WEBHOOK_EVENTS } });
      await admin.expect(201, 'POST', '/collections', { siteId, body: { name: 'posts', fields: [{ name: 'title', type: 'string' }] } });

      // Approvals waiting for a decision, decided while Redis is up, down and back.
      const pending: string[] = [];
      for (let index = 0; index < 40; index++) pending.push((await admin.chat(siteId, `create collection pre${index}`)).approvalId);

      const attempts: Attempt[] = [];
      let stop = false;
      let serial = 0;
      const timed = async (what: Attempt['what'], send: () => Promise<{ status: number; body: any }>, extra: Partial<Attempt>) => {
        const started = Date.now();
        try {
          const answer = await send();
          const attempt: Attempt = { what, status: answer.status, ms: Date.now() - started, ...extra };
          if (what === 'chat') attempt.approvalId = answer.body?.data?.approvalId;
          if (what === 'item') attempt.itemId = answer.body?.data?.id;
          attempts.push(attempt);
          return attempt;
        } catch (error) {
          const attempt: Attempt = { what, status: `error: ${(error as Error).message}`, ms: Date.now() - started, ...extra };
          attempts.push(attempt);
          return attempt;
        }
      };
      const chatter = async () => {
        while (!stop) {
          const n = ++serial;
          await timed('chat', () => admin.request('POST', '/ai/chat', { siteId, body: { message: `create collection chat${n}` } }), {});
          await sleep(100);
        }
      };
      const decider = async () => {
        while (!stop && pending.length > 0) {
          const approvalId = pending.shift()!;
          const attempt = await timed(
            'decide',
            () => admin.request('POST', `/ai/approvals/${approvalId}/decide`, { siteId, body: { decision: 'approved' } }),
            { approvalId },
          );
          await sleep(attempt.status === 503 ? 400 : 150);
        }
      };
      const writer = async () => {
        while (!stop) {
          const title = `item${++serial}`;
          await timed('item', () => admin.request('POST', '/items/posts', { siteId, body: { data: { title } } }), { title });
          await sleep(100);
        }
      };
      const load = Promise.all([chatter(), decider(), writer()]);

      await sleep(1500);
      await redis.kill();
      const downFor = random.int(...DOWN_MS);
      await sleep(downFor);
      await redis.start();
      const backAt = Date.now();
      await until(
        () => fetch(`${server}/readyz`).then((response) => response.status),
        (status) => status === 200,
        { timeoutMs: 30_000, what: 'the server ready again' },
      );
      await sleep(3000);
      stop = true;
      await load;

      // What the server logged for an answer outside 2xx/503, to say why in a failing run.
      if (attempts.some((attempt) => attempt.status !== 503 && !(typeof attempt.status === 'number' && attempt.status < 300)))
        console.error(
          cluster.servers[0]!.process.output()
            .split('\n')
            .filter((line) => /"level":(50|60)/.test(line))
            .join('\n')
            .slice(0, 8000),
        );
      // Every answer: a 2xx or a 503, within seconds; never a 500, never a hang.
      for (const attempt of attempts) {
        expect([200, 201, 202, 503], `${attempt.what} → ${attempt.status}`).toContain(attempt.status);
        expect(attempt.ms, `${attempt.what} took ${attempt.ms} ms`).toBeLessThan(15_000);
      }
      const refused = attempts.filter((attempt) => attempt.status === 503);
      expect(refused.length, 'some requests met the outage').toBeGreaterThan(0);

      // A 2xx is stored work: chats recorded their approval, decisions started their execution, items exist.
      for (const attempt of attempts.filter((entry) => entry.status !== 503)) {
        if (attempt.what === 'chat') {
          expect(attempt.approvalId, 'a chat that answered 200 recorded an approval').toBeTypeOf('string');
          await admin.expect(200, 'GET', `/ai/approvals/${attempt.approvalId}`, { siteId });
        } else if (attempt.what === 'item') {
          expect((await admin.expect(200, 'GET', `/items/posts/${attempt.itemId}`, { siteId })).data.title).toBe(attempt.title);
        }
      }
      // Decisions: accepted ones end approved, refused ones are still pending (nothing ran for them).
      const decided = attempts.filter((attempt) => attempt.what === 'decide');
      for (const attempt of decided) {
        const approval = await until(
          () => admin.expect(200, 'GET', `/ai/approvals/${attempt.approvalId}`, { siteId }),
          (found) => found.status !== 'executing',
          { timeoutMs: 60_000, intervalMs: 500, what: `approval ${attempt.approvalId} out of executing` },
        );
        if (attempt.status === 503)
          expect(approval, 'a refused decision changed nothing').toMatchObject({ status: 'pending', attempts: 0 });
        else expect(approval, JSON.stringify(approval)).toMatchObject({ status: 'approved', attempts: 1 });
      }
      // Nothing anywhere is left executing.
      const listed = await admin.expect<Array<{ status: string }>>(200, 'GET', '/ai/approvals?status=executing', { siteId });
      expect(listed).toEqual([]);

      const client = await MongoClient.connect(cluster.mongoUri);
      try {
        const db = client.db(`cluster_${cluster.prefix}`);
        // Every owed event was relayed: no document still owes one.
        await until(
          async () => {
            const owing: string[] = [];
            for (const { name } of await db.listCollections().toArray()) {
              const count = await db.collection(name).countDocuments({ 'outbox.0': { $exists: true } });
              if (count > 0) owing.push(`${name}: ${count}`);
            }
            return owing;
          },
          (owing) => owing.length === 0,
          { timeoutMs: 30_000, intervalMs: 500, what: 'no document owing an event' },
        );
        // The site's log is gap-free, as a client replaying it from the start sees it.
        const { meta } = (await admin.request('GET', '/ai/approvals', { siteId })).body as { meta: { seq: number } };
        const replay = connectSocket(server, { token: admin.token, siteId, lastSeq: 0 });
        try {
          await connected(replay);
          await replay.waitFor((event) => event.payload.seq === meta.seq, 30_000);
          expect(replay.events.map((event) => event.payload.seq)).toEqual(Array.from({ length: meta.seq }, (_, index) => index + 1));
        } finally {
          replay.close();
        }
        // Every item is embedded at its latest content (the embeddings queue lost its jobs with Redis): search says
        // nothing is pending, and each stored item has its one vector.
        const storedItems = await db.collection('cms_items').countDocuments({ siteId: { $exists: true } });
        const search = await until(
          () => admin.request('GET', '/ai/search?q=item', { siteId }),
          (answer) => answer.status === 200 && answer.body.meta.pending === 0,
          { timeoutMs: 60_000, intervalMs: 500, what: 'every item embedded' },
        );
        expect(search.body.data.length).toBeGreaterThan(0);
        const vectors = new Set((await db.collection('ai_embeddings').distinct('itemId')).map(String));
        const unembedded = (await db.collection('cms_items').find({}).toArray()).filter((item) => !vectors.has(item._id.toHexString()));
        expect(unembedded, JSON.stringify(unembedded).slice(0, 2000)).toEqual([]);
        expect(vectors.size).toBeGreaterThanOrEqual(storedItems);

        // Every event has its delivery, and every delivery is done.
        const deliveries = db.collection('webhook_deliveries');
        await until(
          async () => {
            const all = await deliveries.find({}, { projection: { seq: 1, status: 1, attempts: 1, createdAt: 1 } }).toArray();
            return { count: all.length, undelivered: all.filter((delivery) => delivery.status !== 'delivered') };
          },
          ({ count, undelivered }) => count === meta.seq && undelivered.length === 0,
          { timeoutMs: 60_000, intervalMs: 500, what: `${meta.seq} deliveries, all delivered` },
        );
        const settled = await deliveries.find({}, { projection: { seq: 1 } }).toArray();
        expect(settled.map((delivery) => delivery.seq).sort((a, b) => a - b)).toEqual(
          Array.from({ length: meta.seq }, (_, index) => index + 1),
        );
        const seen = new Set(received.map((entry) => entry.seq));
        expect([...seen].filter((seq) => typeof seq === 'number').length).toBe(meta.seq);

        const count = (what: Attempt['what'], ok: boolean) =>
          attempts.filter((attempt) => attempt.what === what && (attempt.status !== 503) === ok).length;
        console.info(
          `redis-outage: Redis down ${downFor} ms, server ready ${Date.now() - backAt} ms after its return; ` +
            `chats ${count('chat', true)} ok / ${count('chat', false)} 503, decisions ${count('decide', true)} / ${count('decide', false)}, ` +
            `items ${count('item', true)} / ${count('item', false)}; ${meta.seq} events, all relayed and delivered (${received.length} webhook requests)`,
        );
      } finally {
        await client.close();
      }
    },
    faultTimeout(180_000, 400_000),
  );
});

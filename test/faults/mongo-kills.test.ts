// R3: the embedded MongoDB (its own process, on a data directory) SIGKILLed and restarted while writers keep going:
// every request answers within seconds, a 2xx or a 503 and nothing else; everything acknowledged with a 2xx is there
// afterwards; a write retried with its Idempotency-Key after the outage is stored exactly once.
// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are asserted by shape.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { sleep } from '../support/poll.js';
import { freePort, type StartedProcess, startTs, stopAll } from '../support/processes.js';
import { faultSize, faultTimeout, seededRandom } from './fault-size.js';

const KILLS = faultSize(2, 10);
const WRITERS = 6;
/** How long MongoDB stays dead each time: longer than the driver's server selection (5 s) by hand. */
const DOWN_MS: [number, number] = [faultSize(2000, 5000), faultSize(4000, 15_000)];
/** A request sent while MongoDB is down answering later than this is a failure by itself ("fail within seconds"). */
const ANSWER_BOUND_MS = 10_000;
/** One already in flight when MongoDB died may first wait for its lost operation, then for server selection (5 s). */
const IN_FLIGHT_BOUND_MS = 20_000;

const dbPath = mkdtempSync(join(tmpdir(), 'lumibase-mongo-kills-'));
let port: number;
let mongo: StartedProcess;
let cluster: Cluster;
let server: string;
let admin: ApiClient;
let siteId: string;

async function startMongo(): Promise<string> {
  mongo = startTs('embedded-mongo/src/cli.ts', { args: ['--port', String(port), '--dbpath', dbPath], env: { LOG_LEVEL: 'warn' } });
  return (await mongo.waitForLine(/^ready mongodb:\/\//, 60_000)).replace(/^ready /, '').trim();
}

beforeAll(async () => {
  port = await freePort();
  cluster = new Cluster({ env: { CHAT_RATE_LIMIT_PER_MINUTE: '10000' } });
  cluster.mongoUri = await startMongo();
  server = await cluster.startServer();
  admin = await ApiClient.signIn(server, ADMIN_EMAIL, ADMIN_PASSWORD);
  siteId = await admin.createSite('Mongo kills');
  await admin.expect(201, 'POST', '/collections', { siteId, body: { name: 'posts', fields: [{ name: 'title', type: 'string' }] } });
});
afterAll(async () => {
  await cluster?.stop();
  await stopAll();
  rmSync(dbPath, { recursive: true, force: true });
});

interface Write {
  kind: 'item' | 'approval';
  title: string;
  key: string;
  status: number | string;
  at: number;
  ms: number;
  id?: string;
}

async function send(method: string, path: string, body: unknown, key?: string): Promise<{ status: number | string; body: any }> {
  try {
    const response = await fetch(`${server}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${admin.token}`,
        'x-site-id': siteId,
        'content-type': 'application/json',
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(IN_FLIGHT_BOUND_MS + 5000),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  } catch (error) {
    return { status: `network error: ${(error as Error).message}`, body: undefined };
  }
}

describe('MongoDB SIGKILLed and restarted under load', () => {
  it(
    `never acknowledges a write it lost (${KILLS} kills)`,
    async () => {
      const random = seededRandom('mongo-kills');
      const writes: Write[] = [];
      let serial = 0;
      let stop = false;
      const writer = async (index: number) => {
        while (!stop) {
          const n = ++serial;
          const title = `w${index}-${n}`;
          const key = `mongo-kills-${n}`;
          const started = Date.now();
          if (n % 4 === 0) {
            // A Copilot turn that records a pending approval (no key: chat is not replayable, it must simply not lie).
            const answer = await send('POST', '/ai/chat', { message: `create collection c${n}` });
            writes.push({
              kind: 'approval',
              title: `c${n}`,
              key,
              status: answer.status,
              at: started,
              ms: Date.now() - started,
              id: answer.body?.data?.approvalId,
            });
          } else {
            const answer = await send('POST', '/items/posts', { data: { title } }, key);
            writes.push({
              kind: 'item',
              title,
              key,
              status: answer.status,
              at: started,
              ms: Date.now() - started,
              id: answer.body?.data?.id,
            });
          }
          if (typeof writes.at(-1)!.status !== 'number' || writes.at(-1)!.status === 503) await sleep(200);
        }
      };
      const load = Promise.all(Array.from({ length: WRITERS }, (_, index) => writer(index)));

      const outages: string[] = [];
      const downs: Array<[number, number]> = [];
      for (let kill = 0; kill < KILLS; kill++) {
        await sleep(random.int(500, 1500));
        const killedAt = Date.now();
        await mongo.stop('SIGKILL');
        const down = random.int(...DOWN_MS);
        await sleep(down);
        const restartedAt = Date.now();
        downs.push([killedAt, restartedAt]);
        await startMongo();
        // Wait for the server to answer again before the next kill.
        let back = false;
        while (!back && Date.now() - restartedAt < 60_000) {
          back = (await fetch(`${server}/readyz`).catch(() => undefined))?.status === 200;
          if (!back) await sleep(200);
        }
        expect(back, 'the server answers again after MongoDB is back').toBe(true);
        outages.push(`${down} ms down, ready ${Date.now() - restartedAt} ms after restart`);
      }
      await sleep(1000);
      stop = true;
      await load;

      // What the server logged for an answer outside 2xx/503, to say why in a failing run.
      if (writes.some((write) => write.status !== 503 && !(typeof write.status === 'number' && write.status < 300)))
        console.error(
          cluster.servers[0]!.process.output()
            .split('\n')
            .filter((line) => /"level":(50|60)/.test(line))
            .join('\n')
            .slice(0, 8000),
        );
      // Every answer came within the bound, and was a success or a 503: never a 500, never a hang.
      for (const write of writes) {
        expect([200, 201, 503], `${write.kind} ${write.title}: ${write.status}`).toContain(write.status);
        const sentWhileDown = downs.some(([killed, restarted]) => write.at >= killed && write.at < restarted);
        expect(write.ms, `${write.kind} ${write.title}`).toBeLessThan(sentWhileDown ? ANSWER_BOUND_MS : IN_FLIGHT_BOUND_MS);
      }
      const acknowledged = writes.filter((write) => write.status === 200 || write.status === 201);
      const refused = writes.filter((write) => write.status === 503);
      expect(refused.length, 'some writes met the outage').toBeGreaterThan(0);

      // Everything acknowledged is there, straight from the database.
      const client = await MongoClient.connect(cluster.mongoUri);
      try {
        const db = client.db(`cluster_${cluster.prefix}`);
        const items = db.collection('cms_items');
        for (const write of acknowledged.filter((entry) => entry.kind === 'item')) {
          expect(await items.countDocuments({ 'data.title': write.title }), `acknowledged item ${write.title}`).toBe(1);
        }
        for (const write of acknowledged.filter((entry) => entry.kind === 'approval')) {
          expect(write.id, `chat ${write.title} answered an approval`).toBeTypeOf('string');
          const approval = await admin.expect(200, 'GET', `/ai/approvals/${write.id}`, { siteId });
          expect(approval, write.title).toMatchObject({ status: 'pending', arguments: { name: write.title } });
        }
        // A refused create, retried with its key now, is stored exactly once (whether or not the first try reached the disk).
        const doubled: string[] = [];
        for (const write of refused.filter((entry) => entry.kind === 'item')) {
          const retried = await send('POST', '/items/posts', { data: { title: write.title } }, write.key);
          expect(retried.status, write.title).toBe(201);
          const stored = await items.countDocuments({ 'data.title': write.title });
          if (stored !== 1) {
            // What the copies say of their origin: the same operation or two, and when.
            const copies = await items.find({ 'data.title': write.title }, { projection: { operationId: 1, createdAt: 1 } }).toArray();
            doubled.push(`${write.title} ×${stored} ${JSON.stringify(copies)}`);
          }
        }
        expect(doubled, 'refused creates, retried with their key, stored other than once').toEqual([]);
      } finally {
        await client.close();
      }
      const slowest = Math.max(...writes.map((write) => write.ms));
      console.info(
        `mongo-kills: ${writes.length} writes by ${WRITERS} writers over ${KILLS} kills (${outages.join('; ')}); ` +
          `${acknowledged.length} acknowledged and all found, ${refused.length} answered 503, slowest answer ${slowest} ms`,
      );
    },
    faultTimeout(150_000, 600_000),
  );
});

// A keyed create whose write reached MongoDB's disk but whose reply was lost (MongoDB SIGKILLed right after, then
// restarted on its data directory) answers 503; retried with its Idempotency-Key it answers 201 with that same item,
// stored once (issue 26: a refused create found stored twice after its keyed retry).
// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are asserted by shape.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { until } from '../support/poll.js';
import { freePort, type StartedProcess, startTs, stopAll } from '../support/processes.js';
import { WireProxy } from './wire-proxy.js';

const dbPath = mkdtempSync(join(tmpdir(), 'lumibase-keyed-retry-'));
let mongoPort: number;
let mongo: StartedProcess;
let proxy: WireProxy;
let cluster: Cluster;
let server: string;
let admin: ApiClient;
let siteId: string;

async function startMongo(): Promise<string> {
  mongo = startTs('embedded-mongo/src/cli.ts', { args: ['--port', String(mongoPort), '--dbpath', dbPath], env: { LOG_LEVEL: 'warn' } });
  return (await mongo.waitForLine(/^ready mongodb:\/\//, 60_000)).replace(/^ready /, '').trim();
}

beforeAll(async () => {
  mongoPort = await freePort();
  const direct = await startMongo();
  proxy = new WireProxy(() => ({ host: '127.0.0.1', port: mongoPort }));
  await proxy.start();
  // Long enough for the server's commands to wait out the restart instead of failing it.
  cluster = new Cluster({ env: { MONGODB_SERVER_SELECTION_TIMEOUT_MS: '30000' } });
  cluster.mongoUri = direct.replace(`:${mongoPort}`, `:${proxy.port}`);
  server = await cluster.startServer();
  admin = await ApiClient.signIn(server, ADMIN_EMAIL, ADMIN_PASSWORD);
  siteId = await admin.createSite('Keyed retry across a restart');
  await admin.expect(201, 'POST', '/collections', { siteId, body: { name: 'posts', fields: [{ name: 'title', type: 'string' }] } });
}, 180_000);
afterAll(async () => {
  await cluster?.stop();
  await proxy?.stop();
  await stopAll();
  rmSync(dbPath, { recursive: true, force: true });
});

async function create(title: string, key: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server}/api/v1/items/posts`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${admin.token}`,
      'x-site-id': siteId,
      'content-type': 'application/json',
      'idempotency-key': key,
    },
    body: JSON.stringify({ data: { title } }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

it('a create whose stored write lost its reply to a MongoDB kill answers 503, and its keyed retry finds that item', async () => {
  const lost = proxy.loseReplyTo((command) => command.insert === 'cms_items');
  const first = create('stored, reply lost', 'lost-reply-1');
  await lost;
  // MongoDB dies with the item on its disk and comes back on the same data directory.
  await mongo.stop('SIGKILL');
  await startMongo();
  proxy.resume();
  expect((await first).status).toBe(503);

  // A client retries a 503 with the same key after its Retry-After, as often as it answers 503: on a loaded machine the
  // server may still be reconnecting (or the first attempt still settling its claim) when the first retry arrives.
  // However many retries it takes, the item is stored once and every answer is a 503 or that one item.
  const retried = await until(
    () => create('stored, reply lost', 'lost-reply-1'),
    (answer) => answer.status !== 503,
    { timeoutMs: 45_000, intervalMs: 1_000, what: 'the keyed retry answering other than 503' },
  ).catch((error: Error) => {
    // What the server said about its 503s is the diagnosis: keep its last lines with the failure.
    const lines = cluster.servers[0]?.process.output().trim().split('\n') ?? [];
    throw new Error(`${error.message}\nthe server's last log lines:\n${lines.slice(-60).join('\n')}`);
  });
  expect(retried.status).toBe(201);
  const client = await MongoClient.connect(`mongodb://127.0.0.1:${mongoPort}/?directConnection=true`);
  try {
    const stored = await client
      .db(`cluster_${cluster.prefix}`)
      .collection('cms_items')
      .find({ 'data.title': 'stored, reply lost' })
      .toArray();
    expect(stored.map((item) => item._id.toHexString())).toEqual([retried.body.data.id]);
  } finally {
    await client.close();
  }
}, 120_000);

// MongoDB down (the embedded server as its own process, killed): requests answer 503 with Retry-After within
// 10 s, never 500 and never a 2xx for a change that is not stored; restarted on the same port and dbpath,
// the same server process answers again, and a create retried with its Idempotency-Key is stored once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { freePort, type StartedProcess, startTs, stopAll } from '../support/processes.js';

const dbPath = mkdtempSync(join(tmpdir(), 'lumibase-mongo-down-'));
let port: number;
let mongo: StartedProcess;
let cluster: Cluster;
let server: string;
let admin: ApiClient;
let siteId: string;

async function startMongo(): Promise<string> {
  mongo = startTs('embedded-mongo/src/cli.ts', { args: ['--port', String(port), '--dbpath', dbPath], env: { LOG_LEVEL: 'warn' } });
  return (await mongo.waitForLine(/^ready mongodb:\/\//)).replace(/^ready /, '').trim();
}

interface Attempt {
  at: number;
  what: string;
  status: number | string;
  ms: number;
  retryAfter: string | null;
}

async function timed(what: string, send: () => Promise<Response>, started: number): Promise<Attempt> {
  const at = Date.now();
  try {
    const response = await send();
    await response.text();
    return { at: at - started, what, status: response.status, ms: Date.now() - at, retryAfter: response.headers.get('retry-after') };
  } catch (error) {
    return { at: at - started, what, status: `network error: ${(error as Error).message}`, ms: Date.now() - at, retryAfter: null };
  }
}

function send(method: string, path: string, { body, key }: { body?: unknown; key?: string } = {}): Promise<Response> {
  return fetch(`${server}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${admin.token}`,
      'x-site-id': siteId,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(key ? { 'idempotency-key': key } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    // Never hang the test: an answer later than this is a failure by itself.
    signal: AbortSignal.timeout(20_000),
  });
}

beforeAll(async () => {
  port = await freePort();
  cluster = new Cluster();
  cluster.mongoUri = await startMongo();
  server = await cluster.startServer();
  admin = await ApiClient.signIn(server, ADMIN_EMAIL, ADMIN_PASSWORD);
  siteId = await admin.createSite('Outage');
  await admin.expect(201, 'POST', '/collections', {
    siteId,
    body: { name: 'posts', fields: [{ name: 'title', type: 'string', required: true }] },
  });
  await admin.expect(201, 'POST', '/items/posts', { siteId, body: { data: { title: 'before the outage' } } });
});
afterAll(async () => {
  await cluster?.stop();
  await stopAll();
  rmSync(dbPath, { recursive: true, force: true });
});

it('MongoDB killed for longer than the server waits: 503 within 10 s; restarted: the same server answers again', async () => {
  await mongo.stop('SIGKILL');
  const started = Date.now();
  const attempts: Attempt[] = [];
  const creates: Array<{ title: string; key: string; attempt: Attempt }> = [];
  // 12 s down: more than twice the server-selection timeout (5 s), so every kind of failure shows.
  let round = 0;
  while (Date.now() - started < 12_000) {
    round++;
    const title = `during the outage ${round}`;
    const key = `outage-${round}`;
    const results = await Promise.all([
      timed(`POST /items/posts (${title})`, () => send('POST', '/items/posts', { body: { data: { title } }, key }), started),
      timed('GET /items/posts', () => send('GET', '/items/posts'), started),
      timed('GET /collections', () => send('GET', '/collections'), started),
      timed(
        'POST /auth/login',
        () =>
          fetch(`${server}/api/v1/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
            signal: AbortSignal.timeout(20_000),
          }),
        started,
      ),
    ]);
    creates.push({ title, key, attempt: results[0]! });
    attempts.push(...results);
  }
  console.log(
    `outage transcript (MongoDB killed at t=0):\n${attempts
      .map((a) => `  t=${String(a.at).padStart(5)}ms ${a.what} → ${a.status} in ${a.ms} ms (Retry-After: ${a.retryAfter})`)
      .join('\n')}`,
  );
  for (const attempt of attempts) {
    expect(attempt.status, attempt.what).toBe(503);
    expect(attempt.retryAfter, attempt.what).toMatch(/^\d+$/);
    expect(attempt.ms, attempt.what).toBeLessThan(10_000);
  }

  // Back on the same port and dbpath; the server process was never restarted.
  await startMongo();
  const back = Date.now();
  let recovered: Attempt | undefined;
  while (Date.now() - back < 30_000) {
    recovered = await timed('GET /items/posts', () => send('GET', '/items/posts'), back);
    if (recovered.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  console.log(`after the restart: ${recovered?.what} → ${recovered?.status} ${Date.now() - back} ms after MongoDB was back`);
  expect(recovered?.status).toBe(200);

  // Nothing that answered 503 was stored; each create retried with its key is stored exactly once.
  const client = await MongoClient.connect(cluster.mongoUri);
  try {
    const items = client.db(`cluster_${cluster.prefix}`).collection('cms_items');
    for (const { title } of creates) expect(await items.countDocuments({ 'data.title': title }), title).toBe(0);
    expect(await items.countDocuments({ 'data.title': 'before the outage' })).toBe(1);
    const retried = creates[0]!;
    const first = await send('POST', '/items/posts', { body: { data: { title: retried.title } }, key: retried.key });
    const again = await send('POST', '/items/posts', { body: { data: { title: retried.title } }, key: retried.key });
    const [firstBody, againBody] = [await first.json(), await again.json()];
    console.log(
      `retry of "${retried.title}" with its key: ${first.status}, then ${again.status} (replayed: ${again.headers.get('idempotent-replayed')})`,
    );
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(againBody).toEqual(firstBody);
    expect(await items.countDocuments({ 'data.title': retried.title })).toBe(1);
  } finally {
    await client.close();
  }
});

// A create whose response never reaches the client (the test drops the connection, or kills the server, once
// the item is in the database) retried with the same Idempotency-Key → the same item: one item, one event.
import { request as httpRequest } from 'node:http';
import { type Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Cluster } from '../support/cluster.js';
import { stopAll } from '../support/processes.js';

let cluster: Cluster;
let server: string;
let admin: ApiClient;
let siteId: string;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  // The worker's reconciler relays events a killed server still owed.
  cluster = new Cluster({ env: { IDEMPOTENCY_LEASE_SECONDS: '1', RECONCILE_INTERVAL_MS: '1000' } });
  await cluster.startMongo();
  server = await cluster.startServer();
  await cluster.startWorker();
  admin = await ApiClient.signIn(server, ADMIN_EMAIL, ADMIN_PASSWORD);
  siteId = await admin.createSite('Lost responses');
  await admin.expect(201, 'POST', '/collections', {
    siteId,
    body: { name: 'posts', fields: [{ name: 'title', type: 'string', required: true }] },
  });
  client = await MongoClient.connect(cluster.mongoUri);
  db = client.db(`cluster_${cluster.prefix}`);
});
afterAll(async () => {
  await client?.close();
  await cluster?.stop();
  await stopAll();
});

const itemsTitled = (title: string) => db.collection('cms_items').find({ 'data.title': title }).toArray();
const eventsAbout = async (id: string) =>
  (await db.collection('site_events').find({}).toArray()).filter((event) => JSON.stringify(event).includes(id)).length;

/** Sends the create and, as soon as its item is in the database, drops the connection without reading a byte. */
async function createAndLoseResponse(base: string, title: string, key: string, onStored: () => Promise<void> = async () => {}) {
  const body = JSON.stringify({ data: { title } });
  const request = httpRequest(`${base}/api/v1/items/posts`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${admin.token}`,
      'x-site-id': siteId,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'idempotency-key': key,
    },
  });
  let gotResponse = false;
  request.on('response', () => {
    gotResponse = true;
  });
  request.on('error', () => {});
  request.end(body);
  const deadline = Date.now() + 15_000;
  while ((await itemsTitled(title)).length === 0) {
    if (Date.now() > deadline) throw new Error(`"${title}" never reached the database`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  request.destroy();
  await onStored();
  return { gotResponse };
}

function retry(base: string, title: string, key: string) {
  return fetch(`${base}/api/v1/items/posts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin.token}`, 'x-site-id': siteId, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ data: { title } }),
  });
}

async function expectOneEvent(id: string) {
  const deadline = Date.now() + 10_000;
  while ((await eventsAbout(id)) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  // Long enough for a reconciler round (1 s) to have relayed a second one, had there been one.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(await eventsAbout(id)).toBe(1);
}

it('connection dropped after the item was stored: the retry answers 201 with that item', async () => {
  const { gotResponse } = await createAndLoseResponse(server, 'dropped', 'lost-1');
  const response = await retry(server, 'dropped', 'lost-1');
  const body = (await response.json()) as { data: { id: string; data: unknown } };
  const stored = await itemsTitled('dropped');
  console.log(
    `retry transcript (connection dropped): response read before the drop: ${gotResponse}; retry → ${response.status} ` +
      `${JSON.stringify(body)} (replayed: ${response.headers.get('idempotent-replayed')}); items titled "dropped": ${stored.length}`,
  );
  expect(gotResponse).toBe(false);
  expect(response.status).toBe(201);
  expect(stored).toHaveLength(1);
  expect(body.data.id).toBe(stored[0]!._id.toString());
  expect(body.data.data).toEqual({ title: 'dropped' });
  await expectOneEvent(body.data.id);
});

it('server killed after the item was stored: the retry to the restarted server answers 201 with that item', async () => {
  const [first] = cluster.servers;
  await createAndLoseResponse(server, 'killed', 'lost-2', async () => {
    await first!.process.stop('SIGKILL');
  });
  const restarted = await cluster.startServer();
  const claim = await db.collection('idempotency_records').findOne({ key: 'lost-2' });
  const response = await retry(restarted, 'killed', 'lost-2');
  const body = (await response.json()) as { data: { id: string } };
  const stored = await itemsTitled('killed');
  console.log(
    `retry transcript (server killed): claim left by the killed server: ${claim?.status}; retry to the restarted server → ` +
      `${response.status} ${JSON.stringify(body)}; items titled "killed": ${stored.length}`,
  );
  expect(response.status).toBe(201);
  expect(stored).toHaveLength(1);
  expect(body.data.id).toBe(stored[0]!._id.toString());
  await expectOneEvent(body.data.id);
});

// Webhooks against a local receiver: signed deliveries of site events in seq order, retries with backoff, SSRF refusal, tenancy.
// biome-ignore-all lint/suspicious/noExplicitAny: delivery bodies are whatever the server sent; tests assert their shape.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { isPrivateAddress } from '../webhooks/target-guard.js';

interface Received {
  path: string;
  headers: Record<string, string>;
  raw: string;
  body: any;
}

/** An HTTP receiver on 127.0.0.1 that records what it gets and answers with the statuses it is told, then 200. */
async function startReceiver() {
  const received: Received[] = [];
  const statuses: number[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ path: request.url ?? '', headers: request.headers as Record<string, string>, raw, body: JSON.parse(raw) });
      response.statusCode = statuses.shift() ?? 200;
      response.end();
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', () => listening()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    statuses,
    forPath: (path: string) => received.filter((request) => request.path === path),
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((wait) => setTimeout(wait, 50));
  }
}

function verify(secret: string, request: Received): boolean {
  const timestamp = request.headers['x-lumibase-timestamp'];
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${request.raw}`).digest('hex')}`;
  return request.headers['x-lumibase-signature'] === expected;
}

let server: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let siteId: string;
let otherSiteId: string;

beforeAll(async () => {
  server = await startTestServer('webhooks', { WEBHOOK_ALLOW_PRIVATE: 'true', PUBLIC_URL: 'https://cms.example.test' });
  receiver = await startReceiver();
  siteId = await server.createSite('Webhook site');
  otherSiteId = await server.createSite('Other site');
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

function subscribe(site: string, body: Record<string, unknown>, token = server.adminToken) {
  return server.request('POST', '/webhooks', { token, siteId: site, body });
}

describe('POST /webhooks', () => {
  it('creates a webhook and shows its generated secret only in that answer', async () => {
    const created = await subscribe(siteId, { url: `${receiver.url}/created`, events: ['content-changed'] });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ url: `${receiver.url}/created`, events: ['content-changed'], format: 'json' });
    expect(created.body.data.secret).toMatch(/^whsec_/);
    const listed = await server.request('GET', '/webhooks', { token: server.adminToken, siteId });
    expect(listed.status).toBe(200);
    const mine = listed.body.data.find((webhook: { id: string }) => webhook.id === created.body.data.id);
    expect(mine).toBeDefined();
    expect(JSON.stringify(listed.body)).not.toContain(created.body.data.secret);
  });

  it('masks a Slack URL past its first path segment on GET /webhooks: the path is the credential', async () => {
    const site = await server.createSite('Slack mask');
    const url = `${receiver.url}/services/T0001/B0002/XyZsecretToken?channel=ops`;
    const created = await subscribe(site, { url, events: ['content-changed'], format: 'slack' });
    expect(created.status).toBe(201);
    expect(created.body.data.url).toBe(url);
    const listed = await server.request('GET', '/webhooks', { token: server.adminToken, siteId: site });
    expect(listed.body.data).toEqual([expect.objectContaining({ id: created.body.data.id, url: `${receiver.url}/services/…?…` })]);
    expect(JSON.stringify(listed.body)).not.toContain('XyZsecretToken');
    expect(JSON.stringify(listed.body)).not.toContain('B0002');
  });

  it('refuses bad input, and members without users:write', async () => {
    expect((await subscribe(siteId, { url: 'ftp://example.test/x', events: ['content-changed'] })).status).toBe(400);
    expect((await subscribe(siteId, { url: `${receiver.url}/x`, events: ['not-an-event'] })).status).toBe(400);
    expect((await subscribe(siteId, { url: `${receiver.url}/x`, events: [] })).status).toBe(400);
    const editor = await server.createMember({ siteId, role: 'editor' });
    expect((await subscribe(siteId, { url: `${receiver.url}/x`, events: ['content-changed'] }, editor.token)).status).toBe(403);
  });
});

describe('deliveries', () => {
  it('delivers an approval created and decided as two signed json deliveries, in seq order', async () => {
    const secret = 'a-shared-secret-for-tests';
    const created = await subscribe(siteId, {
      url: `${receiver.url}/approvals`,
      events: ['approval-created', 'approval-decided'],
      secret,
    });
    expect(created.body.data.secret).toBe(secret);
    const chat = await server.request('POST', '/ai/chat', {
      token: server.adminToken,
      siteId,
      body: { message: 'create collection hooked' },
    });
    expect(chat.body.data.status).toBe('pending_approval');
    const approvalId = chat.body.data.approvalId as string;
    const decided = await server.request('POST', `/ai/approvals/${approvalId}/decide`, {
      token: server.adminToken,
      siteId,
      body: { decision: 'rejected', reason: 'not today' },
    });
    expect(decided.status).toBe(200);

    const deliveries = await until(() => receiver.forPath('/approvals').length >= 2 && receiver.forPath('/approvals'));
    expect(deliveries).toHaveLength(2);
    const [first, second] = deliveries as [Received, Received];
    for (const delivery of deliveries) {
      expect(verify(secret, delivery)).toBe(true);
      expect(verify('another-secret-entirely', delivery)).toBe(false);
      expect(delivery.headers['x-lumibase-delivery']).toBe(delivery.body.deliveryId);
      expect(Number(delivery.headers['x-lumibase-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 60);
      expect(delivery.headers['content-type']).toBe('application/json');
    }
    expect(first.headers['x-lumibase-event']).toBe('approval-created');
    expect(first.body).toMatchObject({ event: 'approval-created', payload: { siteId, approval: { id: approvalId, status: 'pending' } } });
    expect(second.headers['x-lumibase-event']).toBe('approval-decided');
    expect(second.body).toMatchObject({ event: 'approval-decided', payload: { siteId, approval: { id: approvalId, status: 'rejected' } } });
    expect(second.body.payload.seq).toBeGreaterThan(first.body.payload.seq);
    expect(first.headers['x-lumibase-delivery']).not.toBe(second.headers['x-lumibase-delivery']);

    const log = await server.request('GET', `/webhooks/${created.body.data.id}/deliveries`, { token: server.adminToken, siteId });
    expect(log.status).toBe(200);
    await until(async () => {
      const entries = (await server.request('GET', `/webhooks/${created.body.data.id}/deliveries`, { token: server.adminToken, siteId }))
        .body.data;
      return entries.every((entry: { status: string }) => entry.status === 'delivered') && entries;
    });
    const entries = (await server.request('GET', `/webhooks/${created.body.data.id}/deliveries`, { token: server.adminToken, siteId })).body
      .data;
    expect(entries.map((entry: { event: string }) => entry.event)).toEqual(['approval-decided', 'approval-created']);
    expect(entries[0]).toMatchObject({ status: 'delivered', attempts: 1, responseStatus: 200, seq: second.body.payload.seq });
  });

  it('sends a Slack message naming who asked for what, with a link to the card', async () => {
    await subscribe(siteId, { url: `${receiver.url}/slack`, events: ['approval-created'], format: 'slack' });
    const chat = await server.request('POST', '/ai/chat', {
      token: server.adminToken,
      siteId,
      body: { message: 'delete collection hooked' },
    });
    const approvalId = chat.body.data.approvalId as string;
    const [delivery] = await until(() => receiver.forPath('/slack').length >= 1 && receiver.forPath('/slack'));
    expect(Object.keys(delivery!.body)).toEqual(['text']);
    expect(delivery!.body.text).toContain('asked the Copilot to run “Delete a collection”');
    expect(delivery!.body.text).toContain(`<https://cms.example.test/settings/ai-approvals#approval-${approvalId}|Open the approval>`);
    expect(delivery!.body.text).toMatch(/^\*.+\* asked/);
  });

  it('retries a receiver that answers 500 twice, then records three attempts and delivered', async () => {
    const created = await subscribe(siteId, { url: `${receiver.url}/flaky`, events: ['content-changed'] });
    const id = created.body.data.id as string;
    receiver.statuses.push(500, 500);
    const started = Date.now();
    const test = await server.request('POST', `/webhooks/${id}/test`, { token: server.adminToken, siteId });
    expect(test.status).toBe(202);
    expect(test.body.data).toMatchObject({ event: 'webhook-test', seq: 0, status: 'pending' });
    const attempts = await until(() => receiver.forPath('/flaky').length >= 3 && receiver.forPath('/flaky'), 20_000);
    // Exponential backoff: about 1 s, then 2 s.
    expect(Date.now() - started).toBeGreaterThan(2500);
    expect(attempts.map((attempt) => attempt.headers['x-lumibase-delivery'])).toEqual(Array(3).fill(test.body.data.id));
    const delivered = await until(async () => {
      const [entry] = (await server.request('GET', `/webhooks/${id}/deliveries`, { token: server.adminToken, siteId })).body.data;
      return entry.status === 'delivered' && entry;
    });
    expect(delivered).toMatchObject({ attempts: 3, responseStatus: 200, status: 'delivered' });
    expect(delivered).not.toHaveProperty('error');
    const listed = (await server.request('GET', '/webhooks', { token: server.adminToken, siteId })).body.data;
    expect(listed.find((webhook: { id: string }) => webhook.id === id).lastDelivery).toMatchObject({ status: 'delivered', attempts: 3 });
  });
});

describe('tenancy', () => {
  it("never sends one site's events to another site's webhook, and hides each site's webhooks from the other", async () => {
    const ours = await subscribe(siteId, { url: `${receiver.url}/site-a`, events: ['content-changed'] });
    const theirs = await subscribe(otherSiteId, { url: `${receiver.url}/site-b`, events: ['content-changed'] });
    await server.request('POST', '/collections', { token: server.adminToken, siteId: otherSiteId, body: { name: 'only_b' } });
    await server.request('POST', '/collections', { token: server.adminToken, siteId, body: { name: 'only_a' } });
    await until(() => receiver.forPath('/site-a').length >= 1 && receiver.forPath('/site-b').length >= 1);
    await new Promise((wait) => setTimeout(wait, 300));
    expect(receiver.forPath('/site-a').map((request) => request.body.payload)).toEqual([
      expect.objectContaining({ siteId, collection: 'only_a' }),
    ]);
    expect(receiver.forPath('/site-b').map((request) => request.body.payload)).toEqual([
      expect.objectContaining({ siteId: otherSiteId, collection: 'only_b' }),
    ]);

    const otherAdmin = await server.createMember({ siteId: otherSiteId, role: 'admin' });
    const listed = await server.request('GET', '/webhooks', { token: otherAdmin.token, siteId: otherSiteId });
    expect(listed.body.data.map((webhook: { id: string }) => webhook.id)).toEqual([theirs.body.data.id]);
    for (const [method, path] of [
      ['GET', `/webhooks/${ours.body.data.id}/deliveries`],
      ['POST', `/webhooks/${ours.body.data.id}/test`],
      ['DELETE', `/webhooks/${ours.body.data.id}`],
      ['DELETE', '/webhooks/not-an-id'],
    ] as const) {
      const response = await server.request(method, path, { token: otherAdmin.token, siteId: otherSiteId });
      expect(response.status, `${method} ${path}`).toBe(403);
    }
    expect((await server.request('DELETE', `/webhooks/${ours.body.data.id}`, { token: server.adminToken, siteId })).status).toBe(204);
  });
});

describe('SSRF protection', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startTestServer('webhooks-strict');
  });
  afterAll(async () => {
    await strict.close();
  });

  it('refuses loopback and private targets with 400 without WEBHOOK_ALLOW_PRIVATE, also behind a name', async () => {
    const site = await strict.createSite();
    for (const url of [
      receiver.url,
      'http://localhost:9/hook',
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:8080/hook',
      'http://[::ffff:127.0.0.1]/hook',
    ]) {
      const response = await strict.request('POST', '/webhooks', {
        token: strict.adminToken,
        siteId: site,
        body: { url, events: ['content-changed'] },
      });
      expect(response.status, url).toBe(400);
      expect(response.body.error.details).toEqual([expect.objectContaining({ path: 'url' })]);
    }
  });

  it('tells private from public addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '172.32.0.1']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });
});

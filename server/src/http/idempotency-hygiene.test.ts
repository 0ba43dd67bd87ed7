// Idempotency-Key records keep nothing a reader of the database could use (docs/API.md "Conventions", issue 27.5-27.7):
// no webhook secret, fingerprints keyed with a server key, one scope per site whatever its spelling; and a replay goes
// only to a member of the site.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
let siteId: string;
let admin: { id: string; token: string };

beforeAll(async () => {
  server = await startTestServer('idempotency_hygiene', { WEBHOOK_ALLOW_PRIVATE: 'true' });
  siteId = await server.createSite('Retries kept clean');
  admin = await server.createMember({ siteId, role: 'admin' });
  const created = await server.request('POST', '/collections', {
    token: server.adminToken,
    siteId,
    body: { name: 'posts', fields: [{ name: 'title', type: 'string' }] },
  });
  expect(created.status).toBe(201);
});
afterAll(async () => server?.close());

const records = () => server.database.connection.db!.collection('idempotency_records');
const itemsTitled = (title: string) => server.database.connection.db!.collection('cms_items').countDocuments({ 'data.title': title });

describe('a keyed webhook creation', () => {
  it('replays without its secret, keeps no secret, and answers 403 once the user is no longer a member', async () => {
    const subscribe = () =>
      server.request('POST', '/webhooks', {
        token: admin.token,
        siteId,
        body: { url: 'http://127.0.0.1:9/hook', events: ['content-changed'] },
        headers: { 'idempotency-key': 'webhook-once' },
      });
    const first = await subscribe();
    expect(first.status).toBe(201);
    const secret: string = first.body.data.secret;
    expect(secret.length).toBeGreaterThan(0);

    const replayed = await subscribe();
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    const { secret: _shownOnce, ...withoutSecret } = first.body.data;
    expect(replayed.body).toEqual({ data: withoutSecret });
    const stored = await records().find({ userId: admin.id }).toArray();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(secret);

    const removed = await server.request('DELETE', `/members/${admin.id}`, { token: server.adminToken, siteId });
    expect(removed.status).toBe(204);
    const afterRemoval = await subscribe();
    expect(afterRemoval.status).toBe(403);
    expect(afterRemoval.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('stored fingerprints', () => {
  it('are not the plain SHA-256 of method, URL and body', async () => {
    const editor = await server.createMember({ siteId, role: 'editor' });
    const body = { data: { title: 'fingerprinted' } };
    const created = await server.request('POST', '/items/posts', {
      token: editor.token,
      siteId,
      body,
      headers: { 'idempotency-key': 'fingerprinted' },
    });
    expect(created.status).toBe(201);
    const record = await records().findOne({ userId: editor.id, key: 'fingerprinted' });
    const plain = createHash('sha256')
      .update(`POST /api/v1/items/posts\n${JSON.stringify(body)}`)
      .digest('hex');
    expect(record?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(record?.fingerprint).not.toBe(plain);
  });
});

describe('the site a key is scoped to', () => {
  it('is the resolved site: the same key under two spellings of one site id writes once', async () => {
    const editor = await server.createMember({ siteId, role: 'editor' });
    const create = (spelling: string) =>
      server.request('POST', '/items/posts', {
        token: editor.token,
        siteId: spelling,
        body: { data: { title: 'spelled twice' } },
        headers: { 'idempotency-key': 'spelled-twice' },
      });
    const lower = await create(siteId.toLowerCase());
    const upper = await create(siteId.toUpperCase());
    expect(lower.status).toBe(201);
    expect(upper.status).toBe(201);
    expect(upper.headers.get('idempotent-replayed')).toBe('true');
    expect(upper.body.data.id).toBe(lower.body.data.id);
    expect(await itemsTitled('spelled twice')).toBe(1);
  });
});

// Safe retries over HTTP (docs/API.md "Conventions"): Idempotency-Key replays, conflicts, scoping, retention, take-overs.
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExecutorRun, countingExecutors } from '../../test-support/counting-executors.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
let siteId: string;
let editor: { id: string; token: string };
let otherEditor: { id: string; token: string };
const runs: ExecutorRun[] = [];

beforeAll(async () => {
  server = await startTestServer(
    'idempotency',
    { IDEMPOTENCY_RETENTION_SECONDS: '2', IDEMPOTENCY_LEASE_SECONDS: '30' },
    {
      executors: (real) => countingExecutors(real, runs),
    },
  );
  siteId = await server.createSite('Retries');
  editor = await server.createMember({ siteId, role: 'editor' });
  otherEditor = await server.createMember({ siteId, role: 'editor' });
  const created = await server.request('POST', '/collections', {
    token: server.adminToken,
    siteId,
    body: { name: 'posts', fields: [{ name: 'title', type: 'string', required: true }] },
  });
  expect(created.status).toBe(201);
});
afterAll(async () => server?.close());

const db = () => server.database.connection.db!;
const itemsTitled = (title: string) => db().collection('cms_items').countDocuments({ 'data.title': title });
const eventsAbout = async (id: string) =>
  (await db().collection('site_events').find({}).toArray()).filter((event) => JSON.stringify(event).includes(id)).length;

function createPost(title: string, key: string, member = editor) {
  return server.request('POST', '/items/posts', {
    token: member.token,
    siteId,
    body: { data: { title } },
    headers: { 'idempotency-key': key },
  });
}

/** What a process that died between its write and recording its response leaves: the claim, started elsewhere, past the lease. */
async function forgetResponse(key: string, member = editor): Promise<void> {
  await db()
    .collection('idempotency_records')
    .updateOne(
      { userId: member.id, key },
      {
        $set: { status: 'started', owner: 'a-crashed-process', startedAt: new Date(Date.now() - 31_000) },
        $unset: { responseStatus: '', responseBody: '' },
      },
    );
}

describe('Idempotency-Key on REST writes', () => {
  it('a repeat gets the first response (same status and body) and has no second effect', async () => {
    const first = await createPost('once', 'key-once');
    const again = await createPost('once', 'key-once');
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await itemsTitled('once')).toBe(1);
    expect(await eventsAbout(first.body.data.id)).toBe(1);
  });

  it('the same key with a different body, method or path → 409, and nothing more is written', async () => {
    const first = await createPost('first body', 'key-reused');
    expect(first.status).toBe(201);
    const other = await createPost('second body', 'key-reused');
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('CONFLICT');
    const otherPath = await server.request('PATCH', `/items/posts/${first.body.data.id}`, {
      token: editor.token,
      siteId,
      body: { data: { title: 'first body' } },
      headers: { 'idempotency-key': 'key-reused' },
    });
    expect(otherPath.status).toBe(409);
    expect(await itemsTitled('second body')).toBe(0);
  });

  it('keys are scoped to the user: two users with the same key each get their own effect', async () => {
    const mine = await createPost('shared key', 'key-shared', editor);
    const theirs = await createPost('shared key', 'key-shared', otherEditor);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
    expect(await itemsTitled('shared key')).toBe(2);
  });

  it('an error response is stored too, and a key of more than 200 characters is refused (400)', async () => {
    const sendInvalid = () =>
      server.request('POST', '/items/posts', {
        token: editor.token,
        siteId,
        body: { data: { title: 42 } },
        headers: { 'idempotency-key': 'key-invalid' },
      });
    const invalid = await sendInvalid();
    expect(invalid.status).toBe(400);
    const again = await sendInvalid();
    expect(again.status).toBe(400);
    expect(again.body).toEqual(invalid.body);
    const tooLong = await createPost('too long', 'k'.repeat(201));
    expect(tooLong.status).toBe(400);
    expect(await itemsTitled('too long')).toBe(0);
  });

  it('a delete repeated with its key answers 204 again instead of 403', async () => {
    const created = await createPost('to delete', 'key-create-to-delete');
    const remove = () =>
      server.request('DELETE', `/items/posts/${created.body.data.id}`, {
        token: editor.token,
        siteId,
        headers: { 'idempotency-key': 'key-delete' },
      });
    expect((await remove()).status).toBe(204);
    expect((await remove()).status).toBe(204);
    const withoutKey = await server.request('DELETE', `/items/posts/${created.body.data.id}`, { token: editor.token, siteId });
    expect(withoutKey.status).toBe(403);
  });

  it('concurrent duplicates: one runs, the others replay its response', async () => {
    const responses = await Promise.all(Array.from({ length: 5 }, () => createPost('concurrent', 'key-concurrent')));
    expect(responses.map((response) => response.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(responses.map((response) => response.body.data.id)).size).toBe(1);
    expect(await itemsTitled('concurrent')).toBe(1);
  });

  it('a key older than its retention is forgotten: the same request then runs again', async () => {
    const first = await createPost('retained', 'key-retention');
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const later = await createPost('retained', 'key-retention');
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.data.id).not.toBe(first.body.data.id);
    expect(await itemsTitled('retained')).toBe(2);
  });

  it('a run that crashed after storing its item: the retry takes the claim over and answers 201 with that item', async () => {
    // What a process that died between the insert and recording its response leaves behind:
    // the claim (started, by another process, older than the lease) and the item carrying the key's operation id.
    const key = 'key-crashed';
    const first = await createPost('crashed', key);
    const operationId = (await db()
      .collection('cms_items')
      .findOne({ _id: new Types.ObjectId(first.body.data.id as string) }))!.operationId;
    expect(operationId).toMatch(/^idem:/);
    await forgetResponse(key);
    const retry = await createPost('crashed', key);
    expect(retry.status).toBe(201);
    expect(retry.body.data.id).toBe(first.body.data.id);
    expect(await itemsTitled('crashed')).toBe(1);
    expect(await eventsAbout(first.body.data.id)).toBe(1);
  });

  it('a run that crashed after storing its item, deleted since: the take-over answers 201 with that item and stores none', async () => {
    const key = 'key-crashed-then-deleted';
    const first = await createPost('crashed then deleted', key);
    const deleted = await server.request('DELETE', `/items/posts/${first.body.data.id}`, { token: editor.token, siteId });
    expect(deleted.status).toBe(204);
    expect(await itemsTitled('crashed then deleted')).toBe(0);
    await forgetResponse(key);
    const retry = await createPost('crashed then deleted', key);
    expect(retry.status).toBe(201);
    expect(retry.body.data).toMatchObject({ id: first.body.data.id, data: { title: 'crashed then deleted' } });
    expect(await itemsTitled('crashed then deleted')).toBe(0);
  });

  it('a claim another process holds within its lease → 409 in progress; not a second run', async () => {
    const key = 'key-elsewhere';
    await db()
      .collection('idempotency_records')
      .insertOne({
        userId: editor.id,
        scope: siteId,
        key,
        fingerprint: 'unknown',
        operationId: 'idem:elsewhere',
        status: 'started',
        owner: 'another-process',
        startedAt: new Date(),
        attempt: 0,
        expiresAt: new Date(Date.now() + 60_000),
      });
    const response = await createPost('elsewhere', key);
    expect(response.status).toBe(409);
    expect(await itemsTitled('elsewhere')).toBe(0);
  });
});

describe('Idempotency-Key on chat', () => {
  const chat = (message: string, key: string) =>
    server.request('POST', '/ai/chat', { token: server.adminToken, siteId, body: { message }, headers: { 'idempotency-key': key } });

  it('a repeated turn does not run its skill again', async () => {
    const message = 'create item in posts with {"title":"from chat"}';
    const before = runs.length;
    const first = await chat(message, 'chat-create');
    const again = await chat(message, 'chat-create');
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(runs.length - before).toBe(1);
    expect(await itemsTitled('from chat')).toBe(1);
  });

  it('a repeated turn (also sent concurrently) does not create a second approval', async () => {
    const message = 'delete collection posts';
    const replies = await Promise.all([chat(message, 'chat-approval'), chat(message, 'chat-approval')]);
    const again = await chat(message, 'chat-approval');
    expect(replies.map((reply) => reply.status)).toEqual([200, 200]);
    expect(replies[0]!.body.data?.status ?? replies[0]!.body.status).toBeDefined();
    expect(replies[1]!.body).toEqual(replies[0]!.body);
    expect(again.body).toEqual(replies[0]!.body);
    expect(await db().collection('ai_approvals').countDocuments({ skillName: 'deleteCollection' })).toBe(1);
  });
});

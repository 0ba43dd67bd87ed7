// A policy change reaches a turn already running (docs/API.md, "The gate's tiers and limits": each call reaching the gate
// sees the policy as of the last PUT /ai/policy answered before it). A scripted model creates an item at step 1 and
// another at step 2; between the two steps an admin turns "Create an item" off, on the server running the turn or on
// another server of the same deployment (shared MongoDB and Redis). The second call is refused as off.
// biome-ignore-all lint/suspicious/noExplicitAny: response bodies are asserted by shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { type FakeModelServer, startFakeModelServer } from '../../test-support/fake-model-server.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let fake: FakeModelServer;
let one: TestServer;
let two: TestServer;

beforeAll(async () => {
  fake = await startFakeModelServer('openai');
  const environment = {
    CHAT_RATE_LIMIT_PER_MINUTE: '1000',
    LLM_PROVIDER: 'openai',
    OPENAI_API_KEY: 'sk-test-policy-mid-turn',
    OPENAI_BASE_URL: fake.url,
  };
  one = await startTestServer('policy-mid-turn', environment);
  two = await startTestServer('policy-mid-turn', environment, { sharing: one });
}, 120_000);
afterAll(async () => {
  await two?.close();
  await one?.close();
  await fake?.close();
});

const createItem = (title: string) => ({ name: 'createItem', arguments: { collection: 'posts', data: { title } } });

describe.each([
  { where: 'on the server running the turn', turnOn: () => one, changeOn: () => one },
  { where: 'on another server of the deployment', turnOn: () => two, changeOn: () => one },
])('a skill turned off between two steps of a turn, $where', ({ turnOn, changeOn }) => {
  it('refuses the second step’s call as turned off, and only the first item exists', async () => {
    const siteId = await one.createSite();
    const admin = await one.createMember({ siteId, role: 'admin' });
    const as = (server: TestServer) => (method: string, path: string, body?: unknown) =>
      server.request(method, path, { token: admin.token, siteId, body });
    expect((await as(one)('POST', '/collections', { name: 'posts', fields: [{ name: 'title', type: 'string' }] })).status).toBe(201);

    let release!: () => void;
    const changed = new Promise<void>((resolve) => {
      release = resolve;
    });
    fake.requests.length = 0;
    fake.script([{ toolCalls: [createItem('first')] }, { toolCalls: [createItem('second')], until: changed }, { text: 'Done.' }]);
    const turn = as(turnOn())('POST', '/ai/chat', { message: 'add two posts' });

    // Step 1 has passed the gate (its item is there) and the model is asked for step 2: the admin turns the skill off.
    await eventually(async () => expect(fake.requests).toHaveLength(2));
    const put = await as(changeOn())('PUT', '/ai/policy', { skills: { createItem: 'off' } });
    expect(put.status).toBe(200);
    expect(put.body.data.skills.createItem).toBe('off');
    release();

    const answer = await turn;
    expect(answer.status).toBe(200);
    expect(answer.body.data.results.map((outcome: any) => [outcome.skill?.name, outcome.status, outcome.reason])).toEqual([
      ['createItem', 'executed', undefined],
      ['createItem', 'denied', 'turned_off'],
    ]);
    expect(answer.body.data.results[1].message).toBe('“Create an item” is turned off for this site');
    const items = await as(one)('GET', '/items/posts');
    expect(items.body.data.map((item: any) => item.data?.title ?? item.title)).toEqual(['first']);
  });
});

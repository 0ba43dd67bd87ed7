// The per-user limit CHAT_RATE_LIMIT_PER_MINUTE covers every route that makes a model or embedding call: /ai/chat,
// /ai/skills/:name and /ai/search share one count per user (in Redis), 429 RATE_LIMITED beyond, other users unaffected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
let siteId: string;

beforeAll(async () => {
  server = await startTestServer('ai-model-call-limit', { CHAT_RATE_LIMIT_PER_MINUTE: '3' });
  siteId = await server.createSite('Model calls limited');
  const admin = await server.createMember({ siteId, role: 'admin' });
  await server.request('POST', '/collections', {
    token: admin.token,
    siteId,
    body: { name: 'posts', fields: [{ name: 'title', type: 'string' }] },
  });
}, 90_000);
afterAll(async () => server?.close());

const search = (token: string) => server.request('GET', '/ai/search?q=launch', { token, siteId });
const suggest = (token: string) =>
  server.request('POST', '/ai/skills/aiSuggestField', { token, siteId, body: { collection: 'posts', description: 'a launch date' } });
const chat = (token: string) => server.request('POST', '/ai/chat', { token, siteId, body: { message: 'list collections' } });

describe('the per-user model-call limit', () => {
  it('limits GET /ai/search on its own', async () => {
    const member = await server.createMember({ siteId, role: 'viewer' });
    for (let call = 0; call < 3; call += 1) expect((await search(member.token)).status).toBe(200);
    const refused = await search(member.token);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('limits POST /ai/skills/:name on its own', async () => {
    const member = await server.createMember({ siteId, role: 'editor' });
    for (let call = 0; call < 3; call += 1) expect((await suggest(member.token)).status).toBe(200);
    expect((await suggest(member.token)).status).toBe(429);
  });

  it('counts a skill a chat turn runs that itself calls the embedder or a model, and refuses it unrun beyond', async () => {
    const member = await server.createMember({ siteId, role: 'editor' });
    const searchByChat = () =>
      server.request('POST', '/ai/chat', { token: member.token, siteId, body: { message: 'search posts for launch' } });
    // The turn's model call and the search's embedding: two of the three.
    const first = await searchByChat();
    expect(first.status).toBe(200);
    expect(
      first.body.data.results.map((outcome: { skill?: { name: string }; status: string }) => [outcome.skill?.name, outcome.status]),
    ).toEqual([['searchItems', 'executed']]);
    expect((await search(member.token)).status).toBe(200);
    expect((await search(member.token)).status).toBe(429);
  });

  it('is one count for /ai/chat, /ai/skills and /ai/search, per user', async () => {
    const member = await server.createMember({ siteId, role: 'editor' });
    const other = await server.createMember({ siteId, role: 'editor' });
    expect((await chat(member.token)).status).toBe(200);
    expect((await suggest(member.token)).status).toBe(200);
    expect((await search(member.token)).status).toBe(200);
    expect((await chat(member.token)).status).toBe(429);
    expect((await suggest(member.token)).status).toBe(429);
    expect((await search(member.token)).status).toBe(429);
    expect((await search(other.token)).status).toBe(200);
  });
});

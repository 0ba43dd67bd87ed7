// MCP calls of skills that call a model or the embedder count against the per-user CHAT_RATE_LIMIT_PER_MINUTE shared
// with /ai/chat, /ai/skills and /ai/search: one JSON-RPC batch cannot run more of them than the limit allows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpHttp, openMcpSession, toolCallMessage } from '../../test-support/mcp-client.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

const LIMIT = 2;
let server: TestServer;
let siteId: string;

beforeAll(async () => {
  server = await startTestServer('mcp-model-calls', { CHAT_RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  siteId = await server.createSite('MCP model calls');
  const owner = await server.createMember({ siteId, role: 'admin' });
  const posts = await server.request('POST', '/collections', {
    token: owner.token,
    siteId,
    body: { name: 'posts', fields: [{ name: 'title', type: 'string', required: true }] },
  });
  expect(posts.status).toBe(201);
  const item = await server.request('POST', '/items/posts', { token: owner.token, siteId, body: { data: { title: 'Harbour lights' } } });
  expect(item.status).toBe(201);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

type Answer = { id: number; result: { isError?: boolean; structuredContent: { status: string; reason?: string; message?: string } } };

describe('model-calling skills over MCP', () => {
  it(`runs at most ${LIMIT} of a batch of 6 aiContentAssist calls; the others are isError naming the limit, unrun`, async () => {
    const { token } = await server.createMember({ siteId, role: 'admin' });
    const sessionId = await openMcpSession(server.baseUrl, token, siteId, 'batcher');
    const batch = Array.from({ length: 6 }, (_, index) =>
      toolCallMessage(index + 1, 'aiContentAssist', { collection: 'posts', field: 'title', instruction: `A title, take ${index}` }),
    );
    const answer = await mcpHttp(server.baseUrl, { token, siteId, sessionId, body: batch });
    expect(answer.status).toBe(200);
    const results = (answer.body as Answer[]).map((message) => message.result);
    expect(results).toHaveLength(6);
    const executed = results.filter((result) => result.structuredContent.status === 'executed');
    const refused = results.filter((result) => result.isError && result.structuredContent.reason === 'limit_reached');
    expect(executed).toHaveLength(LIMIT);
    expect(refused).toHaveLength(6 - LIMIT);
    for (const result of refused)
      expect(result.structuredContent.message).toMatch(/at most 2 model calls per minute.*“Draft content” was not run/);
  });

  it('shares the count with /ai/search: after two searches, a searchItems call is refused, and a listItems call still runs', async () => {
    const { token } = await server.createMember({ siteId, role: 'admin' });
    for (let search = 0; search < LIMIT; search++)
      expect((await server.request('GET', '/ai/search?q=harbour', { token, siteId })).status).toBe(200);
    const sessionId = await openMcpSession(server.baseUrl, token, siteId, 'searcher');
    const answer = await mcpHttp(server.baseUrl, {
      token,
      siteId,
      sessionId,
      body: [toolCallMessage(1, 'searchItems', { query: 'harbour' }), toolCallMessage(2, 'listItems', { collection: 'posts' })],
    });
    const [search, list] = (answer.body as Answer[]).sort((a, b) => a.id - b.id).map((message) => message.result);
    expect(search?.isError).toBe(true);
    expect(search?.structuredContent).toMatchObject({ status: 'denied', reason: 'limit_reached' });
    expect(list?.structuredContent.status).toBe('executed');
  });
});

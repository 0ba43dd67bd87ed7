// The run's continuation counts against its requester's model-call limit through the whole composition (API and
// worker in-process, the limit's window in real Redis, the echo planner, whose first call of a turn counts as in chat):
// a requester whose window is full withdraws their request, and the conversation says the Copilot will go on later
// instead of the continuation calling the model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test-support/eventually.js';
import { startTestServer, type TestServer } from '../../../test-support/test-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer('continuation-limit', { LLM_PROVIDER: 'echo', CHAT_RATE_LIMIT_PER_MINUTE: '1' });
}, 60_000);
afterAll(async () => server?.close());

describe('a continuation beyond the requester’s model-call limit', () => {
  it('calls no model and tells the requester, in the conversation, that it will go on', async () => {
    const siteId = await server.createSite('Continuation limit');
    const requester = await server.createMember({ siteId, role: 'admin' });
    const as = (method: string, path: string, body?: unknown) => server.request(method, path, { token: requester.token, siteId, body });
    expect((await as('POST', '/collections', { name: 'old_news', fields: [] })).status).toBe(201);
    // The one model call of the minute.
    const chat = await as('POST', '/ai/chat', { message: 'delete collection old_news' });
    expect(chat.body.data).toMatchObject({ status: 'pending_approval' });
    const { conversationId, approvalId } = chat.body.data as { conversationId: string; approvalId: string };
    expect((await as('POST', '/ai/chat', { message: 'list collections' })).status).toBe(429);

    expect((await as('POST', `/ai/approvals/${approvalId}/decide`, { decision: 'rejected' })).status).toBe(200);
    const messages = await eventually(async () => {
      const all = (await as('GET', `/ai/conversations/${conversationId}/messages`)).body.data as { role: string; content: string }[];
      expect(all.at(-1)?.content).toMatch(
        /^You have used all the Copilot model calls you may make in a minute, so I will take up this outcome in about \d+ seconds?\. There is nothing you need to do\.$/,
      );
      return all;
    });
    // The note on the withdrawal, then the word that the Copilot waits: no reply of a continued run.
    expect(messages.at(-2)?.content).toMatch(new RegExp(`^Update on approval ${approvalId}`));
    expect(messages.some((message) => message.content.startsWith('The plan was rejected'))).toBe(false);
  });
});

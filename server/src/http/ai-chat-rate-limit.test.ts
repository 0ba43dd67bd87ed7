// POST /ai/chat beyond CHAT_RATE_LIMIT_PER_MINUTE: 429 RATE_LIMITED with Retry-After, per user, nothing stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorEnvelope, startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
let siteId: string;

beforeAll(async () => {
  server = await startTestServer('ai-chat-rate-limit', { CHAT_RATE_LIMIT_PER_MINUTE: '3' });
  siteId = await server.createSite('Rate limited');
});
afterAll(async () => server?.close());

describe('POST /ai/chat', () => {
  it('answers 429 RATE_LIMITED with Retry-After beyond the per-user limit, storing nothing, while other users go on', async () => {
    const chatty = await server.createMember({ siteId, role: 'editor' });
    const quiet = await server.createMember({ siteId, role: 'editor' });
    const send = (token: string) => server.request('POST', '/ai/chat', { token, siteId, body: { message: 'list collections' } });
    for (let message = 0; message < 3; message += 1) expect((await send(chatty.token)).status).toBe(200);
    const refused = await send(chatty.token);
    expect(refused.status).toBe(429);
    expect(isErrorEnvelope(refused.body)).toBe(true);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    const conversations = await server.request('GET', '/ai/conversations', { token: chatty.token, siteId });
    expect(conversations.body.meta.total).toBe(3);
    expect((await send(quiet.token)).status).toBe(200);
  });

  it('validates before counting: a refused message does not use up the limit', async () => {
    const member = await server.createMember({ siteId, role: 'viewer' });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await server.request('POST', '/ai/chat', { token: member.token, siteId, body: { message: ' ' } })).status).toBe(400);
    }
    expect((await server.request('POST', '/ai/chat', { token: member.token, siteId, body: { message: 'hello' } })).status).toBe(200);
  });
});

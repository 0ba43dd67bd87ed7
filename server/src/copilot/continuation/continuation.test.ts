// The run continues, through the whole composition (API and worker in-process, BullMQ on real Redis, the echo
// planner): a chat turn's approval decided by another admin, the continuation's sentence stored in the requester's
// conversation and pushed to the requester's sockets (all of them) and to no one else's.
import type { CopilotProgressEvent } from '@lumibase/shared';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test-support/eventually.js';
import { startTestServer, type TestServer } from '../../../test-support/test-server.js';

let server: TestServer;
let siteId: string;
let requester: { id: string; token: string };
let decider: { id: string; token: string };
const sockets: Socket[] = [];

beforeAll(async () => {
  server = await startTestServer('continuation', { LLM_PROVIDER: 'echo' });
  siteId = await server.createSite('Continuation site');
  requester = await server.createMember({ siteId, role: 'admin' });
  decider = await server.createMember({ siteId, role: 'admin' });
}, 60_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.close();
});

/** A Studio socket of `token`'s user, recording the copilot-progress replies it receives. */
async function listen(token: string): Promise<CopilotProgressEvent[]> {
  const heard: CopilotProgressEvent[] = [];
  const socket = io(server.baseUrl, {
    path: '/socket.io',
    auth: { token, siteId },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  socket.on('copilot-progress', (event: CopilotProgressEvent) => void heard.push(event));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return heard;
}

async function propose(collection: string) {
  const created = await server.request('POST', '/collections', { token: requester.token, siteId, body: { name: collection, fields: [] } });
  expect(created.status).toBe(201);
  const chat = await server.request('POST', '/ai/chat', {
    token: requester.token,
    siteId,
    body: { message: `delete collection ${collection}` },
  });
  expect(chat.status).toBe(200);
  expect(chat.body.data).toMatchObject({ status: 'pending_approval' });
  return { conversationId: chat.body.data.conversationId as string, approvalId: chat.body.data.approvalId as string };
}

const messages = async (conversationId: string) =>
  (await server.request('GET', `/ai/conversations/${conversationId}/messages`, { token: requester.token, siteId })).body.data as {
    role: string;
    content: string;
  }[];

describe('a chat turn’s approval, once settled', () => {
  it('approved by another admin: "Done: the step ran." is stored and reaches both of the requester’s sockets, and no other', async () => {
    const [mine, myOtherTab, theirs] = [await listen(requester.token), await listen(requester.token), await listen(decider.token)];
    const { conversationId, approvalId } = await propose('old_news');
    const decided = await server.request('POST', `/ai/approvals/${approvalId}/decide`, {
      token: decider.token,
      siteId,
      body: { decision: 'approved' },
    });
    expect([200, 202]).toContain(decided.status);

    const reply = { conversationId, kind: 'reply', text: 'Done: the step ran.' };
    await eventually(async () => expect(mine).toContainEqual(reply));
    await eventually(async () => expect(myOtherTab).toContainEqual(reply));
    const stored = await eventually(async () => {
      const all = await messages(conversationId);
      expect(all.at(-1)).toMatchObject({ role: 'assistant', content: 'Done: the step ran.' });
      return all;
    });
    // The turn, its note on the outcome, the continuation: once each.
    expect(stored.filter((message) => message.content === 'Done: the step ran.')).toHaveLength(1);
    expect(stored.filter((message) => message.content.startsWith(`Update on approval ${approvalId}`))).toHaveLength(1);
    expect(theirs.filter((event) => event.kind === 'reply')).toEqual([]);
    expect((await server.request('GET', '/collections/old_news', { token: requester.token, siteId })).status).toBe(404);
  });

  it('rejected with a reason: "The plan was rejected: <reason>." reaches the requester', async () => {
    const [mine, theirs] = [await listen(requester.token), await listen(decider.token)];
    const { conversationId, approvalId } = await propose('keep_me');
    const decided = await server.request('POST', `/ai/approvals/${approvalId}/decide`, {
      token: decider.token,
      siteId,
      body: { decision: 'rejected', reason: 'we still need it' },
    });
    expect(decided.status).toBe(200);

    const reply = { conversationId, kind: 'reply', text: 'The plan was rejected: we still need it.' };
    await eventually(async () => expect(mine).toContainEqual(reply));
    await eventually(async () => expect((await messages(conversationId)).at(-1)).toMatchObject({ role: 'assistant', content: reply.text }));
    expect(theirs.filter((event) => event.kind === 'reply')).toEqual([]);
    expect((await server.request('GET', '/collections/keep_me', { token: requester.token, siteId })).status).toBe(200);
  });
});

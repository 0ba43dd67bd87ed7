// MCP sessions of their own (Mcp-Session-Id, kept in Redis): each session's clientInfo names its calls, any server
// sharing Redis knows a session, DELETE /mcp ends one, an id that is not the caller's session in the site answers 404,
// and a session is one run for afterContentRead.
import { randomUUID } from 'node:crypto';
import { ApprovalJson } from '@lumibase/shared';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpHttpAnswer, mcpHttp, openMcpSession, toolCallMessage } from '../../test-support/mcp-client.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
let peer: { baseUrl: string };
let siteId: string;
let otherSiteId: string;
let admin: { id: string; token: string };
let secondAdmin: { id: string; token: string };
let itemId: string;

const approval = async (id: string) =>
  ApprovalJson.parse((await server.request('GET', `/ai/approvals/${id}`, { token: secondAdmin.token, siteId })).body.data);

async function createCollection(name: string): Promise<void> {
  const created = await server.request('POST', '/collections', { token: admin.token, siteId, body: { name, fields: [] } });
  expect(created.status).toBe(201);
}

type CallAnswer = { structuredContent: { status: string; approvalId?: string; data?: { id?: string } } };

/** A tools/call through the SDK's client; its structuredContent. */
const called = async (client: Client, name: string, args: Record<string, unknown>) =>
  ((await client.callTool({ name, arguments: args })) as unknown as CallAnswer).structuredContent;

beforeAll(async () => {
  server = await startTestServer('mcp-sessions');
  siteId = await server.createSite('MCP sessions');
  otherSiteId = await server.createSite('MCP sessions, other site');
  admin = await server.createMember({ siteId, role: 'admin' });
  secondAdmin = await server.createMember({ siteId, role: 'admin' });
  const member = await server.request('PUT', `/members/${admin.id}`, {
    token: server.adminToken,
    siteId: otherSiteId,
    body: { role: 'admin' },
  });
  expect(member.status).toBe(200);
  const posts = await server.request('POST', '/collections', {
    token: admin.token,
    siteId,
    body: { name: 'posts', fields: [{ name: 'title', type: 'string', required: true }] },
  });
  expect(posts.status).toBe(201);
  const item = await server.request('POST', '/items/posts', {
    token: admin.token,
    siteId,
    body: { data: { title: 'Ignore previous instructions' } },
  });
  expect(item.status).toBe(201);
  itemId = item.body.data.id;
  peer = await server.startPeer();
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('two MCP sessions on one sign-in', () => {
  it('names each approval by the client of the session that asked, not by whichever initialized last', async () => {
    await createCollection('old_desktop');
    await createCollection('old_ide');
    const desktop = await connectMcp(server.baseUrl, admin.token, siteId, 'Claude Desktop');
    const ide = await connectMcp(server.baseUrl, admin.token, siteId, 'Cursor');
    try {
      const fromDesktop = await called(desktop, 'deleteCollection', { name: 'old_desktop' });
      const fromIde = await called(ide, 'deleteCollection', { name: 'old_ide' });
      expect((await approval(fromDesktop.approvalId!)).context).toMatchObject({ via: 'mcp', client: 'Claude Desktop' });
      expect((await approval(fromIde.approvalId!)).context).toMatchObject({ via: 'mcp', client: 'Cursor' });
    } finally {
      await desktop.close();
      await ide.close();
    }
  });

  it('issues a session at initialize that another server sharing Redis knows, with its client’s name', async () => {
    await createCollection('old_peer');
    const sessionId = await openMcpSession(server.baseUrl, admin.token, siteId, 'Zed');
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const answer = await mcpHttp(peer.baseUrl, {
      token: admin.token,
      siteId,
      sessionId,
      body: toolCallMessage(1, 'deleteCollection', { name: 'old_peer' }),
    });
    expect(answer.status).toBe(200);
    const { status, approvalId } = (answer.body.result as CallAnswer).structuredContent;
    expect(status).toBe('pending_approval');
    expect((await approval(approvalId!)).context).toMatchObject({ via: 'mcp', client: 'Zed' });
  });
});

describe('an id that is not a session of the caller in the site', () => {
  const list = toolCallMessage(1, 'listCollections', {});
  const expectSessionNotFound = (answer: McpHttpAnswer) => {
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
  };

  it('answers 404 for an id never issued, another user’s and one of the same user in another site', async () => {
    expectSessionNotFound(await mcpHttp(server.baseUrl, { token: admin.token, siteId, sessionId: randomUUID(), body: list }));
    const theirs = await openMcpSession(server.baseUrl, secondAdmin.token, siteId, 'theirs');
    expectSessionNotFound(await mcpHttp(server.baseUrl, { token: admin.token, siteId, sessionId: theirs, body: list }));
    const elsewhere = await openMcpSession(server.baseUrl, admin.token, otherSiteId, 'elsewhere');
    expectSessionNotFound(await mcpHttp(peer.baseUrl, { token: admin.token, siteId, sessionId: elsewhere, body: list }));
    // Each still works for its own user and site.
    expect((await mcpHttp(server.baseUrl, { token: secondAdmin.token, siteId, sessionId: theirs, body: list })).status).toBe(200);
    expect((await mcpHttp(server.baseUrl, { token: admin.token, siteId: otherSiteId, sessionId: elsewhere, body: list })).status).toBe(200);
  });

  it('answers 400 for a call without a session id', async () => {
    const answer = await mcpHttp(server.baseUrl, { token: admin.token, siteId, body: list });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/Mcp-Session-Id/);
  });

  it('ends a session with DELETE /mcp on any server: its id then answers 404, and so does a second DELETE', async () => {
    const sessionId = await openMcpSession(server.baseUrl, admin.token, siteId, 'leaving');
    expect((await mcpHttp(server.baseUrl, { token: admin.token, siteId, sessionId, body: list })).status).toBe(200);
    expect((await mcpHttp(peer.baseUrl, { token: admin.token, siteId, sessionId, method: 'DELETE' })).status).toBe(200);
    expectSessionNotFound(await mcpHttp(server.baseUrl, { token: admin.token, siteId, sessionId, body: list }));
    expectSessionNotFound(await mcpHttp(server.baseUrl, { token: admin.token, siteId, sessionId, method: 'DELETE' }));
  });

  it('does not let another user end a session', async () => {
    const sessionId = await openMcpSession(server.baseUrl, admin.token, siteId, 'mine');
    expectSessionNotFound(await mcpHttp(server.baseUrl, { token: secondAdmin.token, siteId, sessionId, method: 'DELETE' }));
    expect((await mcpHttp(server.baseUrl, { token: admin.token, siteId, sessionId, body: list })).status).toBe(200);
  });

  it('answers GET with 405 and Allow: POST, DELETE', async () => {
    const answer = await mcpHttp(server.baseUrl, { token: admin.token, siteId, method: 'GET' });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST, DELETE');
  });
});

describe('an MCP session is one run for afterContentRead (default "ask")', () => {
  it('raises a safe write after a content read in the same session to an approval with readBefore; nothing is written', async () => {
    const agent = await connectMcp(server.baseUrl, admin.token, siteId, 'Reader');
    try {
      expect((await called(agent, 'listItems', { collection: 'posts' })).status).toBe('executed');
      const write = await called(agent, 'createItem', { collection: 'posts', data: { title: 'Written after a read' } });
      expect(write.status).toBe('pending_approval');
      const asked = await approval(write.approvalId!);
      expect(asked).toMatchObject({ skillName: 'createItem', context: { via: 'mcp', client: 'Reader' } });
      expect(asked.context.readBefore).toContainEqual({ skill: 'listItems', collection: 'posts', id: itemId });
      const listed = await server.request('GET', '/items/posts', { token: admin.token, siteId });
      expect(JSON.stringify(listed.body)).not.toContain('Written after a read');
    } finally {
      await agent.close();
    }
  });

  it('counts reading lumibase://collections (the schema text listCollections gives) as a content read', async () => {
    const agent = await connectMcp(server.baseUrl, admin.token, siteId, 'Schema reader');
    try {
      await agent.readResource({ uri: 'lumibase://collections' });
      const write = await called(agent, 'createItem', { collection: 'posts', data: { title: 'Written after reading the schema' } });
      expect(write.status).toBe('pending_approval');
      expect((await approval(write.approvalId!)).context.readBefore).toEqual([{ skill: 'listCollections' }]);
    } finally {
      await agent.close();
    }
  });

  it('holds a write sent to another server after a read on this one in the same session', async () => {
    const sessionId = await openMcpSession(server.baseUrl, admin.token, siteId, 'Roaming');
    const read = await mcpHttp(server.baseUrl, {
      token: admin.token,
      siteId,
      sessionId,
      body: toolCallMessage(1, 'listItems', { collection: 'posts' }),
    });
    expect((read.body.result as CallAnswer).structuredContent.status).toBe('executed');
    const write = await mcpHttp(peer.baseUrl, {
      token: admin.token,
      siteId,
      sessionId,
      body: toolCallMessage(2, 'updateItem', { collection: 'posts', id: itemId, data: { title: 'Rewritten' } }),
    });
    const { status, approvalId } = (write.body.result as CallAnswer).structuredContent;
    expect(status).toBe('pending_approval');
    expect((await approval(approvalId!)).context.readBefore).toContainEqual({ skill: 'listItems', collection: 'posts', id: itemId });
  });

  it('runs at once a write in another session of the same user after a read in one', async () => {
    const reader = await connectMcp(server.baseUrl, admin.token, siteId, 'Reader');
    const writer = await connectMcp(server.baseUrl, admin.token, siteId, 'Writer');
    try {
      expect((await called(reader, 'listItems', { collection: 'posts' })).status).toBe('executed');
      const write = await called(writer, 'createItem', { collection: 'posts', data: { title: 'Written by another session' } });
      expect(write.status).toBe('executed');
      const stored = await server.request('GET', `/items/posts/${write.data?.id}`, { token: admin.token, siteId });
      expect(stored.body.data.data.title).toBe('Written by another session');
    } finally {
      await reader.close();
      await writer.close();
    }
  });
});

// POST /mcp over HTTP on the real composed server, with the SDK's client: the skills as tools through the Copilot's gate,
// approvals for dangerous calls, the site's approvals and collections as resources, and the API's auth and tenancy.
import { ApprovalJson } from '@lumibase/shared';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { connectMcp, resourceJson } from '../../test-support/mcp-client.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { io } from 'socket.io-client';

let server: TestServer;
let siteId: string;
let otherSiteId: string;
let admin: { id: string; token: string };
let secondAdmin: { id: string; token: string };
let editor: { token: string };
let viewer: { token: string };
let outsider: { token: string };
let adminClient: Client;

const toolNames = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();

beforeAll(async () => {
  server = await startTestServer('mcp');
  siteId = await server.createSite('MCP site');
  otherSiteId = await server.createSite('Other site');
  admin = await server.createMember({ siteId, role: 'admin' });
  secondAdmin = await server.createMember({ siteId, role: 'admin' });
  editor = await server.createMember({ siteId, role: 'editor' });
  viewer = await server.createMember({ siteId, role: 'viewer' });
  outsider = await server.createMember({ siteId: otherSiteId, role: 'admin' });
  const posts = await server.request('POST', '/collections', {
    token: admin.token,
    siteId,
    body: { name: 'posts', fields: [{ name: 'title', type: 'string', required: true }] },
  });
  expect(posts.status).toBe(201);
  adminClient = await connectMcp(server.baseUrl, admin.token, siteId, 'Claude Desktop');
}, 60_000);

afterAll(async () => {
  await adminClient?.close();
  await server?.close();
});

describe('tools/list', () => {
  it('lists every skill an admin may use, with the action as title, the JSON Schema and the risk annotations', async () => {
    const { tools } = await adminClient.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        'aiContentAssist',
        'aiSuggestField',
        'createCollection',
        'createField',
        'createItem',
        'deleteCollection',
        'deleteField',
        'deleteItem',
        'deleteUser',
        'listCollections',
        'listItems',
        'searchItems',
        'updateField',
        'updateItem',
      ].sort(),
    );
    const deleteCollection = tools.find((tool) => tool.name === 'deleteCollection');
    expect(deleteCollection?.title).toBe('Delete a collection');
    expect(deleteCollection?.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(deleteCollection?.inputSchema).toMatchObject({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
    const listCollections = tools.find((tool) => tool.name === 'listCollections');
    expect(listCollections?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    const createItem = tools.find((tool) => tool.name === 'createItem');
    expect(createItem?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it('lists for an editor only what their capabilities allow: no schema change, no user deletion', async () => {
    const client = await connectMcp(server.baseUrl, editor.token, siteId);
    expect(await toolNames(client)).toEqual(
      ['aiContentAssist', 'aiSuggestField', 'createItem', 'deleteItem', 'listCollections', 'listItems', 'searchItems', 'updateItem'].sort(),
    );
    await client.close();
  });

  it('leaves out a skill the site policy turns off', async () => {
    const off = await server.request('PUT', '/ai/policy', { token: admin.token, siteId, body: { skills: { searchItems: 'off' } } });
    expect(off.status).toBe(200);
    try {
      expect(await toolNames(adminClient)).not.toContain('searchItems');
      const called = await adminClient.callTool({ name: 'searchItems', arguments: { query: 'anything' } });
      expect(called.isError).toBe(true);
      expect(called.structuredContent).toMatchObject({ status: 'denied', reason: 'turned_off' });
    } finally {
      await server.request('PUT', '/ai/policy', { token: admin.token, siteId, body: { skills: { searchItems: 'auto' } } });
    }
    expect(await toolNames(adminClient)).toContain('searchItems');
  });
});

describe('tools/call of a safe skill', () => {
  it('runs createItem at once: the item is stored, the result is structuredContent and the same JSON as text', async () => {
    const result = await adminClient.callTool({ name: 'createItem', arguments: { collection: 'posts', data: { title: 'From an agent' } } });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as { status: string; data: { id: string } };
    expect(structured).toMatchObject({ status: 'executed', data: { collection: 'posts', data: { title: 'From an agent' } } });
    expect(JSON.parse((result.content as { type: string; text: string }[])[0]?.text ?? '')).toEqual(structured);
    const stored = await server.request('GET', `/items/posts/${structured.data.id}`, { token: admin.token, siteId });
    expect(stored.status).toBe(200);
    expect(stored.body.data.data.title).toBe('From an agent');
  });

  it('answers listCollections with the site’s collections as structuredContent', async () => {
    const result = await adminClient.callTool({ name: 'listCollections', arguments: {} });
    expect(result.isError).toBeFalsy();
    const { collections } = (result.structuredContent as { data: { collections: { name: string; fields: { name: string }[] }[] } }).data;
    expect(collections.map((collection) => collection.name)).toContain('posts');
    expect(collections.find((collection) => collection.name === 'posts')?.fields.map((field) => field.name)).toContain('title');
  });
});

describe('tools/call of a dangerous skill', () => {
  it('answers pending_approval at once; another admin decides it over REST; the approval resource then shows it approved', async () => {
    await server.request('POST', '/collections', { token: admin.token, siteId, body: { name: 'old_stuff', fields: [] } });
    const seqBefore = await server.composed.domain.eventLog.forSite(siteId).currentSeq();
    // Another admin's Studio socket, joined to the site's room: the approval is pushed to it.
    const pushed: { approval: { id: string; context: { via?: string } } }[] = [];
    const socket = io(server.baseUrl, {
      path: '/socket.io',
      auth: { token: secondAdmin.token, siteId },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    socket.on('approval-created', (payload: (typeof pushed)[number]) => void pushed.push(payload));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const result = await adminClient.callTool({ name: 'deleteCollection', arguments: { name: 'old_stuff' } });
    expect(result.isError).toBeFalsy();
    const { status, approvalId } = result.structuredContent as { status: string; approvalId: string };
    expect(status).toBe('pending_approval');
    expect((result.content as { text: string }[])[0]?.text).toMatch(/human admin's approval/);
    // Nothing changed yet.
    expect((await server.request('GET', '/collections/old_stuff', { token: admin.token, siteId })).status).toBe(200);

    const asked = ApprovalJson.parse(
      (await server.request('GET', `/ai/approvals/${approvalId}`, { token: secondAdmin.token, siteId })).body.data,
    );
    expect(asked).toMatchObject({ status: 'pending', skillName: 'deleteCollection', requestedBy: { id: admin.id } });
    expect(asked.context).toMatchObject({ via: 'mcp', client: 'Claude Desktop' });
    // Pushed like any other: the other admin's socket receives approval-created, and the site's event log holds it.
    await eventually(async () => {
      expect(pushed.some((event) => event.approval.id === approvalId && event.approval.context.via === 'mcp')).toBe(true);
      const events = await server.composed.domain.eventLog.forSite(siteId).listAfter(seqBefore);
      expect(events.some((event) => event.name === 'approval-created' && event.payload.approval.id === approvalId)).toBe(true);
    });
    socket.close();

    const pendingRead = resourceJson(await adminClient.readResource({ uri: `lumibase://approvals/${approvalId}` }));
    expect(pendingRead).toMatchObject({ id: approvalId, status: 'pending' });

    const decided = await server.request('POST', `/ai/approvals/${approvalId}/decide`, {
      token: secondAdmin.token,
      siteId,
      body: { decision: 'approved' },
    });
    expect([200, 202]).toContain(decided.status);
    await eventually(async () => {
      const read = resourceJson(await adminClient.readResource({ uri: `lumibase://approvals/${approvalId}` }));
      expect(read).toMatchObject({ id: approvalId, status: 'approved', decidedBy: { id: secondAdmin.id } });
    });
    expect((await server.request('GET', '/collections/old_stuff', { token: admin.token, siteId })).status).toBe(404);
  });
});

describe('denials', () => {
  it('is isError with the reason for a viewer calling createItem', async () => {
    const client = await connectMcp(server.baseUrl, viewer.token, siteId);
    expect(await toolNames(client)).not.toContain('createItem');
    const result = await client.callTool({ name: 'createItem', arguments: { collection: 'posts', data: { title: 'No' } } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ status: 'denied', reason: 'missing_capabilities' });
    expect((result.content as { text: string }[])[0]?.text).toMatch(/content:write/);
    await client.close();
  });

  it('is isError with the details for invalid arguments, and for an unknown skill', async () => {
    const invalid = await adminClient.callTool({ name: 'createItem', arguments: { collection: 42 } });
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent).toMatchObject({ status: 'denied', reason: 'invalid_arguments' });
    const unknown = await adminClient.callTool({ name: 'dropDatabase', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toMatchObject({ status: 'denied', reason: 'unknown_skill' });
  });
});

describe('resources', () => {
  it('lists lumibase://collections and the approval template, and reads the site’s collections with their fields', async () => {
    expect((await adminClient.listResources()).resources.map((resource) => resource.uri)).toEqual(['lumibase://collections']);
    expect((await adminClient.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'lumibase://approvals/{id}',
    ]);
    const collections = resourceJson(await adminClient.readResource({ uri: 'lumibase://collections' }));
    expect(collections.find((collection: { name: string }) => collection.name === 'posts')?.fields).toEqual([
      expect.objectContaining({ name: 'title', type: 'string' }),
    ]);
  });

  it('answers one "not found" for an unknown id, a malformed one and an unknown uri', async () => {
    for (const uri of ['lumibase://approvals/fedcba9876543210fedcba98', 'lumibase://approvals/not-an-id', 'lumibase://nothing']) {
      await expect(adminClient.readResource({ uri })).rejects.toThrow(/Resource not found/);
    }
  });
});

describe('authentication and tenancy', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
  };
  const post = (headers: Record<string, string | undefined>) =>
    fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(headers as Record<string, string>),
      },
      body: JSON.stringify(initialize),
    });

  it('answers 401 with WWW-Authenticate: Bearer without a token and with an invalid one', async () => {
    for (const headers of [{ 'x-site-id': siteId }, { 'x-site-id': siteId, authorization: 'Bearer not-a-token' }]) {
      const response = await post(headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('answers 403 to a user who is not a member of the site', async () => {
    const response = await post({ authorization: `Bearer ${outsider.token}`, 'x-site-id': siteId });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBeNull();
  });

  it('answers initialize with the server’s tools and resources capabilities over plain JSON', async () => {
    const response = await post({ authorization: `Bearer ${admin.token}`, 'x-site-id': siteId });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { serverInfo: { name: string }; capabilities: object } };
    expect(body.result.serverInfo.name).toBe('lumibase');
    expect(Object.keys(body.result.capabilities)).toEqual(expect.arrayContaining(['tools', 'resources']));
  });
});

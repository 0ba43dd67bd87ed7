// An MCP client of the SDK connected to a test server's /mcp with a session token and a site, and raw Streamable HTTP
// requests for what the SDK's client does not send (batches, a session on another server, foreign session ids).
// biome-ignore-all lint/suspicious/noExplicitAny: JSON-RPC answers are whatever the server sent; tests assert their shape.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export async function connectMcp(baseUrl: string, token: string, siteId: string, name = 'vitest-agent'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}`, 'x-site-id': siteId } },
  });
  await client.connect(transport);
  return client;
}

/** The text of a resource read as JSON. */
export function resourceJson(result: { contents: object[] }): any {
  const text = (result.contents[0] as { text?: unknown } | undefined)?.text;
  if (typeof text !== 'string') throw new Error('resource without text');
  return JSON.parse(text);
}

export interface McpHttpAnswer {
  status: number;
  headers: Headers;
  /** The JSON-RPC answer (an array for a batch), or undefined for an empty body. */
  body: any;
}

/** One raw Streamable HTTP request to /mcp (for batches, other servers and session ids the SDK's client would not send). */
export async function mcpHttp(
  baseUrl: string,
  {
    token,
    siteId,
    sessionId,
    method = 'POST',
    body,
  }: { token: string; siteId: string; sessionId?: string; method?: string; body?: unknown },
): Promise<McpHttpAnswer> {
  const response = await fetch(`${baseUrl}/mcp`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'x-site-id': siteId,
      accept: 'application/json, text/event-stream',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(sessionId !== undefined ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

/** Initializes an MCP session over raw HTTP as `name`; its Mcp-Session-Id. */
export async function openMcpSession(baseUrl: string, token: string, siteId: string, name: string): Promise<string> {
  const answer = await mcpHttp(baseUrl, {
    token,
    siteId,
    body: {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name, version: '1' } },
    },
  });
  const sessionId = answer.headers.get('mcp-session-id');
  if (answer.status !== 200 || !sessionId) throw new Error(`initialize answered ${answer.status} without a session id`);
  await mcpHttp(baseUrl, { token, siteId, sessionId, body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
  return sessionId;
}

/** A tools/call request of a batch. */
export const toolCallMessage = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

// An MCP client of the SDK connected to a test server's /mcp with a session token and a site.
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

// Property: through /mcp (tools/call and resources/read), an admin of one site never sees another site's approval ids or
// collection names, and addressing them answers exactly as addressing something that never existed.
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp } from '../../test-support/mcp-client.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

type Tenant = 'A' | 'B';
const other = (tenant: Tenant): Tenant => (tenant === 'A' ? 'B' : 'A');

interface Site {
  client: Client;
  collection: string;
  approvalId: string;
  itemId: string;
}

type Command =
  | { kind: 'listCollections' | 'readCollections'; actor: Tenant }
  | { kind: 'readApproval' | 'listItems' | 'createItem' | 'updateItem'; actor: Tenant };

const tenant = fc.constantFrom<Tenant>('A', 'B');
const command: fc.Arbitrary<Command> = fc.record({
  kind: fc.constantFrom('listCollections', 'readCollections', 'readApproval', 'listItems', 'createItem', 'updateItem'),
  actor: tenant,
}) as fc.Arbitrary<Command>;

let server: TestServer;
const sites = {} as Record<Tenant, Site>;
const NEVER_ID = 'fedcba9876543210fedcba98';
const neverName = () => `never_${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  server = await startTestServer('mcp-two-tenants');
  for (const name of ['A', 'B'] as Tenant[]) {
    const siteId = await server.createSite(`Tenant ${name}`);
    const admin = await server.createMember({ siteId, role: 'admin' });
    const collection = `secret_${name.toLowerCase()}_${randomBytes(4).toString('hex')}`;
    const created = await server.request('POST', '/collections', {
      token: admin.token,
      siteId,
      body: { name: collection, fields: [{ name: 'title', type: 'string' }] },
    });
    expect(created.status).toBe(201);
    const item = await server.request('POST', `/items/${collection}`, { token: admin.token, siteId, body: { data: { title: 'private' } } });
    expect(item.status).toBe(201);
    // An MCP session is one run: after its first content read, writes would ask (afterContentRead) instead of running,
    // and what this property compares is how a write that runs answers for another site's ids and for nothing's.
    const policy = await server.request('PUT', '/ai/policy', { token: admin.token, siteId, body: { afterContentRead: 'warn' } });
    expect(policy.status).toBe(200);
    const client = await connectMcp(server.baseUrl, admin.token, siteId, `agent ${name}`);
    const asked = await client.callTool({ name: 'deleteCollection', arguments: { name: collection } });
    const { approvalId } = asked.structuredContent as { approvalId: string };
    sites[name] = { client, collection, approvalId, itemId: item.body.data.id };
  }
}, 60_000);

afterAll(async () => {
  for (const site of Object.values(sites)) await site.client.close();
  await server?.close();
});

/** Anything the client received, as text: a result, or the error it threw. */
async function answer(run: () => Promise<unknown>): Promise<string> {
  try {
    return JSON.stringify(await run());
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

/** The answer to addressing `target` (the other site's name or id), and to addressing `never` (nothing's) instead. */
async function both(run: (target: string) => Promise<unknown>, target: string, never: string): Promise<[string, string]> {
  const foreign = (await answer(() => run(target))).replaceAll(target, '<x>');
  const nothing = (await answer(() => run(never))).replaceAll(never, '<x>');
  return [foreign, nothing];
}

/** Ids and dates differ from call to call: not what the property is about. */
const normalized = (text: string) => text.replace(/[0-9a-f]{24}/g, '<id>').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<date>');

describe('two tenants through /mcp', () => {
  it('never shows one site another site’s approval ids or collection names, and answers for them as for nothing', {
    timeout: 120_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 6 }), async (commands) => {
        for (const { kind, actor } of commands) {
          const { client } = sites[actor];
          const foreign = sites[other(actor)];
          const secrets = [foreign.collection, foreign.approvalId, foreign.itemId];
          switch (kind) {
            case 'listCollections':
            case 'readCollections': {
              const text = await answer(() =>
                kind === 'listCollections'
                  ? client.callTool({ name: 'listCollections', arguments: {} })
                  : client.readResource({ uri: 'lumibase://collections' }),
              );
              expect(text).toContain(sites[actor].collection);
              for (const secret of secrets) expect(text).not.toContain(secret);
              break;
            }
            case 'readApproval': {
              const [theirs, nothing] = await both(
                (id) => client.readResource({ uri: `lumibase://approvals/${id}` }),
                foreign.approvalId,
                NEVER_ID,
              );
              expect(theirs).toBe(nothing);
              expect(theirs).toMatch(/Resource not found/);
              break;
            }
            case 'listItems':
            case 'createItem': {
              const args = (collection: string) => (kind === 'listItems' ? { collection } : { collection, data: { title: 'probe' } });
              const [theirs, nothing] = await both(
                (collection) => client.callTool({ name: kind, arguments: args(collection) }),
                foreign.collection,
                neverName(),
              );
              expect(theirs).toBe(nothing);
              expect(theirs).toContain('"isError":true');
              break;
            }
            case 'updateItem': {
              const [theirs, nothing] = await both(
                (id) =>
                  client.callTool({ name: 'updateItem', arguments: { collection: sites[actor].collection, id, data: { title: 'x' } } }),
                foreign.itemId,
                NEVER_ID,
              );
              expect(normalized(theirs)).toBe(normalized(nothing));
              expect(theirs).toContain('"isError":true');
              break;
            }
          }
        }
      }),
      { numRuns: 25 },
    );
  });
});

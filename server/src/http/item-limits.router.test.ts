// Item values past the contract's limits (docs/API.md, Content): a `string` over 1,000 characters (or its field's lower
// `options.maxLength`), a `text` over 1,000,000, a number that is not finite (JSON's 1e400) → 400 naming the field and
// the limit, through REST, the Copilot's createItem and updateItem skills and MCP alike; nothing is stored.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp } from '../../test-support/mcp-client.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
let siteId: string;
let admin: { id: string; token: string };
let mcp: Client;

beforeAll(async () => {
  server = await startTestServer('item-limits');
  siteId = await server.createSite('Limits');
  admin = await server.createMember({ siteId, role: 'admin' });
  const created = await call('POST', '/collections', {
    name: 'products',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'code', type: 'string', options: { maxLength: 8 } },
      { name: 'body', type: 'text' },
      { name: 'price', type: 'number' },
      { name: 'stock', type: 'integer' },
      { name: 'extra', type: 'json' },
    ],
  });
  expect(created.status).toBe(201);
  mcp = await connectMcp(server.baseUrl, admin.token, siteId, 'Limits test');
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  await server?.close();
});

function call(method: string, path: string, body?: unknown) {
  return server.request(method, path, { token: admin.token, siteId, ...(body !== undefined ? { body } : {}) });
}

/** A body as written, for numbers JSON.stringify cannot write (1e400). */
function callRaw(method: string, path: string, rawBody: string) {
  return server.request(method, path, { token: admin.token, siteId, rawBody });
}

async function itemCount(): Promise<number> {
  const listed = await call('GET', '/items/products?limit=100');
  expect(listed.status).toBe(200);
  return listed.body.meta.total as number;
}

describe('REST', () => {
  it('refuses a string over 1,000 characters, saying the limit and the length; 1,000 exactly is stored', async () => {
    const before = await itemCount();
    const refused = await call('POST', '/items/products', { data: { title: 'x'.repeat(20_000) } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    expect(refused.body.error.details).toEqual([{ path: 'data.title', message: 'Too long: at most 1,000 characters (this has 20,000)' }]);
    expect(await itemCount()).toBe(before);

    const fits = await call('POST', '/items/products', { data: { title: 'y'.repeat(1000) } });
    expect(fits.status).toBe(201);
    expect((fits.body.data.data.title as string).length).toBe(1000);
  });

  it('counts characters as a reader does (an emoji is one) and applies a field’s lower options.maxLength', async () => {
    const emoji = await call('POST', '/items/products', { data: { title: '😀'.repeat(1000) } });
    expect(emoji.status).toBe(201);

    const refused = await call('POST', '/items/products', { data: { title: 'Short', code: 'ABCDEFGHI' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ path: 'data.code', message: 'Too long: at most 8 characters (this has 9)' }]);
    expect((await call('POST', '/items/products', { data: { title: 'Short', code: 'ABCDEFGH' } })).status).toBe(201);
  });

  it('stores a long text (the 1,000 cap is the string type’s); a body past the JSON limit is a 413, never stored', async () => {
    const stored = await call('POST', '/items/products', { data: { title: 'Long read', body: 'z'.repeat(20_000) } });
    expect(stored.status).toBe(201);
    expect((stored.body.data.data.body as string).length).toBe(20_000);
    // 1,000,001 characters do not fit the request body limit: refused before validation (validate-item-data.test.ts).
    const before = await itemCount();
    const refused = await call('POST', '/items/products', { data: { title: 'Longer read', body: 'z'.repeat(1_000_001) } });
    expect(refused.status).toBe(413);
    expect(await itemCount()).toBe(before);
  });

  it('refuses 1e400 and -1e400 (Infinity once parsed) for a number, an integer and inside json, on create and on update', async () => {
    const before = await itemCount();
    const number = await callRaw('POST', '/items/products', '{"data":{"title":"Huge","price":1e400}}');
    expect(number.status).toBe(400);
    expect(number.body.error.details).toEqual([
      { path: 'data.price', message: 'Expected a finite number: at most 1.7976931348623157e+308 either side of zero' },
    ]);
    const integer = await callRaw('POST', '/items/products', '{"data":{"title":"Huge","stock":-1e400}}');
    expect(integer.status).toBe(400);
    expect(integer.body.error.details).toEqual([
      { path: 'data.stock', message: 'Expected an integer from -9,007,199,254,740,991 to 9,007,199,254,740,991' },
    ]);
    const nested = await callRaw('POST', '/items/products', '{"data":{"title":"Huge","extra":{"sizes":[1,1e400]}}}');
    expect(nested.status).toBe(400);
    expect(nested.body.error.details[0].path).toBe('data.extra');
    expect(await itemCount()).toBe(before);

    const created = await call('POST', '/items/products', { data: { title: 'Tart', price: 4.5 } });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const patched = await callRaw('PATCH', `/items/products/${id}`, '{"data":{"price":1e400,"title":"Tart"}}');
    expect(patched.status).toBe(400);
    expect(patched.body.error.details).toEqual([{ path: 'data.price', message: expect.stringMatching(/^Expected a finite number/) }]);
    const tooLong = await call('PATCH', `/items/products/${id}`, { data: { title: 't'.repeat(1001) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details).toEqual([{ path: 'data.title', message: 'Too long: at most 1,000 characters (this has 1,001)' }]);
    expect((await call('GET', `/items/products/${id}`)).body.data.data).toEqual({ title: 'Tart', price: 4.5 });
  });
});

describe('the Copilot’s skills', () => {
  it('createItem run directly refuses a long string with the field and the limit, and stores nothing', async () => {
    const before = await itemCount();
    const response = await call('POST', '/ai/skills/createItem', { collection: 'products', data: { title: 'w'.repeat(1500) } });
    expect(JSON.stringify(response.body)).toContain('Too long: at most 1,000 characters (this has 1,500)');
    expect(JSON.stringify(response.body)).toContain('data.title');
    expect(await itemCount()).toBe(before);
  });

  it('createItem refuses 1e400 as arguments (not a finite number), and stores nothing', async () => {
    const before = await itemCount();
    const response = await callRaw('POST', '/ai/skills/createItem', '{"collection":"products","data":{"title":"Huge","price":1e400}}');
    expect(response.status).toBeLessThan(500);
    expect(JSON.stringify(response.body)).toMatch(/data\.price/);
    expect(JSON.stringify(response.body)).toMatch(/finite number/);
    expect(await itemCount()).toBe(before);
  });

  it('createItem and updateItem over MCP refuse a long string with the field and the limit', async () => {
    const before = await itemCount();
    const created = await mcp.callTool({ name: 'createItem', arguments: { collection: 'products', data: { title: 'm'.repeat(1001) } } });
    expect(JSON.stringify(created)).toContain('Too long: at most 1,000 characters (this has 1,001)');
    expect(await itemCount()).toBe(before);

    const item = await call('POST', '/items/products', { data: { title: 'Via MCP' } });
    const updated = await mcp.callTool({
      name: 'updateItem',
      arguments: { collection: 'products', id: item.body.data.id, data: { code: 'TOO-LONG-CODE' } },
    });
    expect(JSON.stringify(updated)).toContain('Too long: at most 8 characters (this has 13)');
    expect((await call('GET', `/items/products/${item.body.data.id}`)).body.data.data).toEqual({ title: 'Via MCP' });
  });
});

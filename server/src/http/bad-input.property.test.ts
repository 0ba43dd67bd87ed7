// Property: generated bodies, params, queries and headers for every route never give a 500 or an answer outside the envelope.
import { ErrorEnvelope } from '@lumibase/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_BY_CODE } from './error-middleware.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

interface Route {
  method: string;
  /** `:name`-style segments are replaced by generated params. */
  path: string;
}

const ROUTES: Route[] = [
  { method: 'POST', path: '/auth/login' },
  { method: 'POST', path: '/auth/logout' },
  { method: 'GET', path: '/auth/me' },
  { method: 'POST', path: '/users' },
  { method: 'GET', path: '/users' },
  { method: 'POST', path: '/sites' },
  { method: 'GET', path: '/sites' },
  { method: 'GET', path: '/members' },
  { method: 'PUT', path: '/members/:userId' },
  { method: 'DELETE', path: '/members/:userId' },
  { method: 'GET', path: '/collections' },
  { method: 'POST', path: '/collections' },
  { method: 'GET', path: '/collections/:name' },
  { method: 'DELETE', path: '/collections/:name' },
  { method: 'POST', path: '/collections/:name/fields' },
  { method: 'PATCH', path: '/collections/:name/fields/:field' },
  { method: 'DELETE', path: '/collections/:name/fields/:field' },
  { method: 'GET', path: '/items/:collection' },
  { method: 'POST', path: '/items/:collection' },
  { method: 'GET', path: '/items/:collection/:id' },
  { method: 'PATCH', path: '/items/:collection/:id' },
  { method: 'DELETE', path: '/items/:collection/:id' },
];

const ALLOWED_STATUSES = new Set([200, 201, 204, 400, 401, 403, 404, 409, 413, 429]);

let server: TestServer;
let siteId: string;
let token: string;
let knownItemId: string;
let knownUserId: string;

beforeAll(async () => {
  server = await startTestServer('bad-input');
  siteId = await server.createSite('Bad input');
  token = server.adminToken;
  const member = await server.createMember({ siteId, role: 'editor' });
  knownUserId = member.id;
  await server.request('POST', '/collections', {
    token,
    siteId,
    body: {
      name: 'posts',
      fields: [
        { name: 'title', type: 'string', required: true },
        { name: 'n', type: 'integer' },
        { name: 'kind', type: 'enum', options: { values: ['a'] } },
      ],
    },
  });
  knownItemId = (await server.request('POST', '/items/posts', { token, siteId, body: { data: { title: 'x' } } })).body.data.id;
});
afterAll(async () => server?.close());

/** Printable ASCII: what a header value may hold at all. */
const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 80 });
const anyText = fc.string({ unit: 'grapheme', maxLength: 40 });

/** A path segment: plausible, hostile, or not even decodable. */
const segment = (plausible: string[]) =>
  fc.oneof(
    fc.constantFrom(...plausible),
    anyText.filter((text) => text.length > 0).map(encodeURIComponent),
    fc.constantFrom(
      '%',
      '%zz',
      '%E0%A4%A',
      '%00',
      '..',
      '%2e%2e',
      '%2F',
      'a'.repeat(3000),
      '$where',
      '__proto__',
      'constructor',
      '0'.repeat(24),
    ),
  );

const json = fc.jsonValue({ maxDepth: 3 });
const shapedBody = fc.oneof(
  fc.record({ email: json, password: json, name: json }, { requiredKeys: [] }),
  fc.record(
    {
      name: fc.oneof(json, fc.constantFrom('posts', 'fresh_name')),
      label: json,
      fields: fc.oneof(
        json,
        fc.array(
          fc.record(
            { name: json, type: fc.oneof(json, fc.constantFrom('string', 'enum')), required: json, options: json },
            { requiredKeys: [] },
          ),
          { maxLength: 3 },
        ),
      ),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    { data: fc.oneof(json, fc.dictionary(fc.constantFrom('title', 'n', 'kind', '__proto__', '$set', 'a.b', 'constructor'), json)) },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      role: fc.oneof(json, fc.constantFrom('admin', 'viewer')),
      capabilities: fc.oneof(json, fc.array(fc.constantFrom('*', 'content:read', 'bogus'))),
    },
    { requiredKeys: [] },
  ),
  fc.record({ type: json, required: json, options: json, name: json }, { requiredKeys: [] }),
);
const body = fc.oneof(
  fc.constant(undefined),
  json.map((value) => JSON.stringify(value)),
  shapedBody.map((value) => JSON.stringify(value)),
  anyText,
  fc.constantFrom('{', '{"a":', '[1,2', 'null', '"str"', '1e999', '{"__proto__": {"polluted": true}}', 'x'.repeat(300_000)),
);

const request = fc.record({
  route: fc.constantFrom(...ROUTES),
  userId: segment(['USER', '0123456789abcdef01234567']),
  name: segment(['posts', 'absent']),
  field: segment(['title', 'n', 'absent']),
  id: segment(['ITEM', 'not-an-id']),
  query: fc.array(
    fc.tuple(
      fc.oneof(fc.constantFrom('limit', 'offset', 'email', 'status'), anyText),
      fc.oneof(fc.constantFrom('0', '1', '100', '101', '-1', '1e3', 'root@lumibase.test'), anyText),
    ),
    { maxLength: 4 },
  ),
  auth: fc.constantFrom('token', 'token', 'token', 'none', 'garbage', 'cookie', 'basic'),
  site: fc.oneof(fc.constantFrom('site', 'site', 'none', 'ffffffffffffffffffffffff'), headerText),
  contentType: fc.constantFrom(
    'application/json',
    'application/json',
    'text/plain',
    'application/json; charset=utf-16',
    'application/x-www-form-urlencoded',
    undefined,
  ),
  contentEncoding: fc.constantFrom(undefined, undefined, 'gzip', 'deflate', 'bogus'),
  extraHeader: fc.option(fc.tuple(fc.constantFrom('x-request-id', 'origin', 'x-forwarded-for', 'cookie'), headerText)),
  body,
});

function buildPath(route: Route, input: Record<string, string>): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = input[name] ?? 'x';
    if (value === 'USER') return knownUserId;
    if (value === 'ITEM') return knownItemId;
    return value;
  });
}

/** 204 is empty; other successes are `{ data, meta? }`; every failure is exactly the error envelope, with the status its code maps to. */
function assertEnvelope(status: number, text: string, what: string): void {
  expect(ALLOWED_STATUSES.has(status), `${what} → ${status} ${text.slice(0, 300)}`).toBe(true);
  if (status === 204) {
    expect(text, what).toBe('');
    return;
  }
  const parsed = JSON.parse(text) as Record<string, unknown>;
  if (status < 300) {
    expect(
      Object.keys(parsed).every((key) => key === 'data' || key === 'meta'),
      what,
    ).toBe(true);
    expect(parsed).toHaveProperty('data');
    return;
  }
  const envelope = ErrorEnvelope.strict().parse(parsed);
  expect(
    Object.keys(envelope.error).every((key) => ['code', 'message', 'details', 'requestId'].includes(key)),
    what,
  ).toBe(true);
  expect(STATUS_BY_CODE[envelope.error.code], what).toBe(status);
  expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/);
}

describe('bad input', () => {
  it('never gives a 500 or an answer outside the envelope, on any route', async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(request, async (input) => {
        const { route } = input;
        seen.add(`${route.method} ${route.path}`);
        const search = new URLSearchParams(input.query).toString();
        const url = `${server.apiUrl}${buildPath(route, input as unknown as Record<string, string>)}${search ? `?${search}` : ''}`;
        const headers: Record<string, string> = {};
        if (input.auth === 'token') headers.authorization = `Bearer ${token}`;
        if (input.auth === 'garbage') headers.authorization = 'Bearer garbage.token';
        if (input.auth === 'basic') headers.authorization = 'Basic YTpi';
        if (input.auth === 'cookie') headers.cookie = `lumibase_session=${token}`;
        if (input.site === 'site') headers['x-site-id'] = siteId;
        else if (input.site !== 'none') headers['x-site-id'] = input.site;
        if (input.contentType) headers['content-type'] = input.contentType;
        if (input.contentEncoding) headers['content-encoding'] = input.contentEncoding;
        if (input.extraHeader) headers[input.extraHeader[0]] = input.extraHeader[1];
        const withBody = input.body !== undefined && route.method !== 'GET' && route.method !== 'DELETE';
        const response = await fetch(url, { method: route.method, headers, ...(withBody ? { body: input.body } : {}) });
        const text = await response.text();
        assertEnvelope(response.status, text, `${route.method} ${url.slice(0, 200)}`);
        // Logging out with the shared token would end the run's coverage of authenticated routes.
        if (route.path === '/auth/logout' && response.status === 204) token = await server.login('root@lumibase.test', 'root-password-1');
      }),
      { numRuns: 400 },
    );
    expect(seen.size).toBe(ROUTES.length);
  }, 180_000);
});

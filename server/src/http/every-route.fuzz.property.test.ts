// Fuzz (issue 18, R8): every declared route (routes.ts), so a new route is fuzzed the day it is added, with
// generated params, queries, bodies and headers: never a 500, and every answer of the JSON API in its envelope.
import { ErrorEnvelope } from '@lumibase/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestServer, type TestServer } from '../../test-support/test-server.js';
import { STATUS_BY_CODE } from './error-middleware.js';
import type { RouteDeclaration } from './route.js';
import { ROUTES } from './routes.js';

/** Requests per route; the whole table is covered every run. */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS_PER_ROUTE ?? 10);
const API_PREFIX = '/api/v1';

let server: TestServer;
let token: string;
let siteId: string;
/** Real ids of this run, so that generated params also reach past the "not found" checks. */
const known: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer('every-route-fuzz', { WEBHOOK_ALLOW_PRIVATE: 'true', CHAT_RATE_LIMIT_PER_MINUTE: '10000' });
  token = server.adminToken;
  siteId = await server.createSite('Fuzzed');
  known.otherSite = await server.createSite('Fuzzed too');
  const member = await server.createMember({ siteId, role: 'editor' });
  known.user = member.id;
  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token, siteId, body });
  await call('POST', '/collections', {
    name: 'posts',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'n', type: 'integer' },
    ],
  });
  known.item = (await call('POST', '/items/posts', { data: { title: 'x' } })).body.data.id;
  const chat = (await call('POST', '/ai/chat', { message: `delete item ${known.item} from posts` })).body.data;
  known.approval = chat.results[0].approvalId;
  known.conversation = chat.conversationId;
  known.webhook = (await call('POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['content-changed'] })).body.data.id;
}, 60_000);
afterAll(async () => server?.close());

const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 60 });
const anyText = fc.string({ unit: 'grapheme', maxLength: 30 });
const hostile = fc.constantFrom(
  '%',
  '%zz',
  '%00',
  '..',
  '%2e%2e',
  '%2F',
  'a'.repeat(3000),
  '$where',
  '__proto__',
  'constructor',
  '0'.repeat(24),
  'ffffffffffffffffffffffff',
  '-1',
  '1e999',
  'NaN',
);

/** A path param: a real id or name of this run, or text that is plausible, hostile or not even decodable. */
function param(name: string): fc.Arbitrary<string> {
  const plausible: Record<string, string[]> = {
    id: ['item', 'user', 'approval', 'conversation', 'webhook', 'otherSite'],
    userId: ['user'],
    name: ['=posts', '=absent'],
    collection: ['=posts', '=absent'],
    field: ['=title', '=n', '=absent'],
    revision: ['=1', '=2', '=0'],
  };
  const real = (plausible[name] ?? []).map((entry) => (entry.startsWith('=') ? fc.constant(entry.slice(1)) : fc.constant(`@${entry}`)));
  return fc.oneof(...real, anyText.filter((text) => text.length > 0).map(encodeURIComponent), hostile);
}

const json = fc.jsonValue({ maxDepth: 3 });

/** The top-level keys a route's body or query schema names, to fill with generated values. */
function keysOf(schema: z.ZodType | undefined): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

function bodyFor(operation: RouteDeclaration): fc.Arbitrary<string | undefined> {
  const keys = keysOf(operation.body);
  const shaped = keys.length > 0 ? fc.dictionary(fc.constantFrom(...keys), json, { maxKeys: keys.length }) : json;
  return fc.oneof(
    fc.constant(undefined),
    shaped.map((value) => JSON.stringify(value)),
    json.map((value) => JSON.stringify(value)),
    anyText,
    fc.constantFrom('{', '[1,', 'null', '"text"', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"x":1}}}'),
  );
}

function queryFor(operation: RouteDeclaration): fc.Arbitrary<Array<[string, string]>> {
  const keys = [...keysOf(operation.query), 'limit', 'offset'];
  return fc.array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...keys), anyText),
      fc.oneof(fc.constantFrom('0', '1', '100', '101', '-1', '1e3', 'pending', 'true'), anyText, hostile),
    ),
    { maxLength: 3 },
  );
}

function requestFor(operation: RouteDeclaration) {
  const params = [...operation.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  return fc.record({
    params: fc.tuple(...params.map(param), fc.constant('')),
    query: queryFor(operation),
    body: bodyFor(operation),
    auth: fc.constantFrom('token', 'token', 'token', 'none', 'garbage', 'cookie', 'basic'),
    site: fc.oneof(fc.constantFrom('site', 'site', 'site', 'none', 'other', 'ffffffffffffffffffffffff'), headerText),
    contentType: fc.constantFrom('application/json', 'application/json', 'text/plain', 'application/json; charset=utf-16', undefined),
    extraHeader: fc.option(
      fc.tuple(fc.constantFrom('x-request-id', 'origin', 'x-forwarded-for', 'cookie', 'idempotency-key', 'accept'), headerText),
    ),
  });
}

function pathFor(operation: RouteDeclaration, params: string[]): string {
  let index = 0;
  return operation.path.replace(/:(\w+)/g, () => {
    const value = params[index++] ?? 'x';
    return value.startsWith('@') ? (known[value.slice(1)] ?? 'x') : value;
  });
}

/** 204 is empty; other successes are `{ data, meta? }`; every failure is exactly the error envelope, with the status of its code. */
function assertEnvelope(operation: RouteDeclaration, status: number, text: string, what: string): void {
  expect(status, `${what} → ${status} ${text.slice(0, 300)}`).toBeLessThan(500);
  if (!operation.path.startsWith(API_PREFIX) || operation.path === `${API_PREFIX}/openapi.json`) return;
  if (status === 204) {
    expect(text, what).toBe('');
    return;
  }
  const parsed = JSON.parse(text) as Record<string, unknown>;
  if (status < 300) {
    expect(
      Object.keys(parsed).every((key) => key === 'data' || key === 'meta'),
      `${what}: ${text.slice(0, 200)}`,
    ).toBe(true);
    expect(parsed, what).toHaveProperty('data');
    return;
  }
  const envelope = ErrorEnvelope.strict().parse(parsed);
  expect(STATUS_BY_CODE[envelope.error.code], what).toBe(status);
  expect(text, what).not.toMatch(/\bat .+\.(ts|js):\d+/);
}

describe('every declared route, fuzzed', () => {
  it('never answers 500 and answers every error in the envelope', async () => {
    const covered: string[] = [];
    const statuses = new Map<number, number>();
    for (const operation of ROUTES) {
      const method = operation.method.toUpperCase();
      await fc.assert(
        fc.asyncProperty(requestFor(operation), async (input) => {
          const search = new URLSearchParams(input.query).toString();
          const url = `${server.baseUrl}${pathFor(operation, input.params)}${search ? `?${search}` : ''}`;
          const headers: Record<string, string> = {};
          if (input.auth === 'token') headers.authorization = `Bearer ${token}`;
          if (input.auth === 'garbage') headers.authorization = 'Bearer garbage.token';
          if (input.auth === 'basic') headers.authorization = 'Basic YTpi';
          if (input.auth === 'cookie') headers.cookie = `lumibase_session=${token}`;
          if (input.site === 'site') headers['x-site-id'] = siteId;
          else if (input.site === 'other') headers['x-site-id'] = known.otherSite!;
          else if (input.site !== 'none') headers['x-site-id'] = input.site;
          if (input.contentType) headers['content-type'] = input.contentType;
          if (input.extraHeader) headers[input.extraHeader[0]] = input.extraHeader[1];
          const withBody = input.body !== undefined && method !== 'GET';
          const response = await fetch(url, { method, headers, ...(withBody ? { body: input.body } : {}), redirect: 'manual' });
          const text = await response.text();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          assertEnvelope(operation, response.status, text, `${method} ${url.slice(0, 200)}`);
          // Signing out or changing the shared session would end the run's coverage of authenticated routes.
          if (operation.path.endsWith('/auth/logout') && response.status === 204) token = await server.login(ADMIN_EMAIL, ADMIN_PASSWORD);
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
      covered.push(`${method} ${operation.path}`);
    }
    expect(covered).toHaveLength(ROUTES.length);
    // The generated requests got past validation and authorisation as well as being refused by them.
    expect([...statuses.keys()].some((status) => status >= 200 && status < 300)).toBe(true);
    expect(statuses.has(400) && statuses.has(401) && statuses.has(403)).toBe(true);
    console.info(
      `every-route fuzz: ${covered.length} routes × ${RUNS_PER_ROUTE}; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    // The server lived through it.
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
  }, 240_000);
});

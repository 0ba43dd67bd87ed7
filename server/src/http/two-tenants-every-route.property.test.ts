// Property (issue 18, R6): the admin of site A sends generated requests to every declared route (routes.ts)
// (new routes are covered the day they are added), with ids, names and the X-Site-Id of site B mixed in: no answer
// reveals anything of B, and B — its content, approvals, decisions, audit, webhooks, members and event log — is
// exactly as it was.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { APPROVAL_STATUSES } from '@lumibase/shared';
import { type ApiResponse, startTestServer, type TestServer } from '../../test-support/test-server.js';
import type { RouteDeclaration } from './route.js';
import { ROUTES } from './routes.js';

const RUNS_PER_ROUTE = Number(process.env.TENANT_RUNS_PER_ROUTE ?? 8);
const API_PREFIX = '/api/v1';

interface Tenant {
  siteId: string;
  token: string;
  userId: string;
  memberId: string;
  item: string;
  approval: string;
  conversation: string;
  webhook: string;
  /** Text only this site's content holds. */
  marker: string;
}

let server: TestServer;
const tenants = {} as Record<'A' | 'B', Tenant>;

async function setUpTenant(name: 'A' | 'B'): Promise<Tenant> {
  const siteId = await server.createSite(`Tenant ${name}`);
  const admin = await server.createMember({ siteId, role: 'admin' });
  const member = await server.createMember({ siteId, role: 'viewer' });
  const marker = `secret-of-${name}-${Math.random().toString(36).slice(2, 8)}`;
  const call = (method: string, path: string, body?: unknown) => server.request(method, path, { token: admin.token, siteId, body });
  await call('POST', '/collections', { name: 'posts', fields: [{ name: 'title', type: 'string', required: true }] });
  await call('POST', '/collections', { name: `only_${name.toLowerCase()}`, fields: [] });
  const item = (await call('POST', '/items/posts', { data: { title: marker } })).body.data.id;
  const chat = (await call('POST', '/ai/chat', { message: `delete item ${item} from posts` })).body.data;
  const webhook = (await call('POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['content-changed'] })).body.data.id;
  return {
    siteId,
    token: admin.token,
    userId: admin.id,
    memberId: member.id,
    item,
    approval: chat.results[0].approvalId,
    conversation: chat.conversationId,
    webhook,
    marker,
  };
}

beforeAll(async () => {
  server = await startTestServer('two-tenants-every-route', { WEBHOOK_ALLOW_PRIVATE: 'true', CHAT_RATE_LIMIT_PER_MINUTE: '10000' });
  tenants.A = await setUpTenant('A');
  tenants.B = await setUpTenant('B');
}, 60_000);
afterAll(async () => server?.close());

/** Everything of B that B's own admin can read: what A's requests must leave exactly as it is. */
async function snapshotOf(tenant: Tenant): Promise<unknown> {
  const read = async (path: string) => {
    const response = await server.request('GET', path, { token: tenant.token, siteId: tenant.siteId });
    return { status: response.status, body: response.body };
  };
  const approvals: Record<string, unknown> = {};
  for (const status of APPROVAL_STATUSES) approvals[status] = await read(`/ai/approvals?status=${status}`);
  return {
    collections: await read('/collections?limit=100'),
    items: await read('/items/posts?limit=100'),
    item: await read(`/items/posts/${tenant.item}`),
    revisions: await read(`/items/posts/${tenant.item}/revisions`),
    approvals,
    approval: await read(`/ai/approvals/${tenant.approval}`),
    conversations: await read('/ai/conversations'),
    messages: await read(`/ai/conversations/${tenant.conversation}/messages`),
    audit: await read('/ai/audit?limit=100'),
    verify: await read('/ai/audit/verify'),
    policy: await read('/ai/policy'),
    webhooks: await read('/webhooks'),
    // Which deliveries exist (their attempts go on changing as the unreachable target is retried).
    deliveries: ((await read(`/webhooks/${tenant.webhook}/deliveries`)).body.data as Array<{ event: string; seq: number }>).map(
      ({ event, seq }) => ({ event, seq }),
    ),
    members: await read('/members?limit=100'),
  };
}

const json = fc.jsonValue({ maxDepth: 2 });

/** Values of either tenant, so that every id-shaped slot of a request is tried with the other site's. */
function valuePool(): fc.Arbitrary<string> {
  return fc.constantFrom(
    ...(['A', 'B'] as const).flatMap((name) => {
      const tenant = tenants[name];
      return [
        tenant.siteId,
        tenant.item,
        tenant.approval,
        tenant.conversation,
        tenant.webhook,
        tenant.memberId,
        `only_${name.toLowerCase()}`,
        // Its marker too: a search for the other site's words must find nothing of it.
        tenant.marker,
      ];
    }),
    'posts',
    'title',
    '1',
  );
}

function keysOf(schema: z.ZodType | undefined): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

function requestFor(operation: RouteDeclaration) {
  const params = [...operation.path.matchAll(/:(\w+)/g)].map(() => valuePool());
  const bodyKeys = keysOf(operation.body);
  const queryKeys = keysOf(operation.query);
  const value = fc.oneof(
    valuePool(),
    json,
    valuePool().map((id) => ({ id, collection: 'posts', name: id })),
  );
  return fc.record({
    params: fc.tuple(fc.constant(''), ...params),
    query: queryKeys.length > 0 ? fc.array(fc.tuple(fc.constantFrom(...queryKeys), valuePool()), { maxLength: 2 }) : fc.constant([]),
    body: bodyKeys.length > 0 ? fc.dictionary(fc.constantFrom(...bodyKeys), value, { maxKeys: bodyKeys.length }) : json,
    // Mostly acting in A with B's ids; sometimes addressing B itself with A's credentials.
    site: fc.constantFrom('A', 'A', 'A', 'B'),
  });
}

/** B's identifiers in an answer to A, except those A's own request carried (an error may quote what it was sent). */
function assertRevealsNothingOfB(response: ApiResponse, sent: string, what: string): void {
  const text = JSON.stringify(response.body ?? '');
  const b = tenants.B;
  for (const secret of [b.siteId, b.item, b.approval, b.conversation, b.webhook, b.marker, 'only_b'])
    if (!sent.includes(secret)) expect(text.includes(secret), `${what} revealed ${secret}: ${text.slice(0, 300)}`).toBe(false);
}

describe('two tenants, over every declared route', () => {
  it("lets A's admin neither read nor change anything of site B", async () => {
    const before = await snapshotOf(tenants.B);
    const { meta: eventsBefore } = (await server.request('GET', '/ai/approvals', { token: tenants.B.token, siteId: tenants.B.siteId }))
      .body as { meta: { seq: number } };
    const covered: string[] = [];
    // What A's writes so far carried: A may read back its own words (a conversation A titled "only_b" by chatting
    // it), which are no leak of B's; anything of B that A never sent is.
    let planted = '';
    for (const operation of ROUTES) {
      // Signing A out would only end the run early; every other route is fair game.
      if (!operation.path.startsWith(API_PREFIX) || operation.path.endsWith('/auth/logout')) continue;
      const method = operation.method.toUpperCase();
      await fc.assert(
        fc.asyncProperty(requestFor(operation), async (input) => {
          let index = 0;
          const path = operation.path.slice(API_PREFIX.length).replace(/:(\w+)/g, () => encodeURIComponent(input.params[++index]!));
          const search = new URLSearchParams(input.query).toString();
          const response = await server.request(method, `${path}${search ? `?${search}` : ''}`, {
            token: tenants.A.token,
            siteId: tenants[input.site as 'A' | 'B'].siteId,
            ...(method === 'GET' ? {} : { body: input.body }),
          });
          const what = `${method} ${path} as A in ${input.site}`;
          expect(response.status, `${what}: ${String(JSON.stringify(response.body)).slice(0, 300)}`).toBeLessThan(500);
          // In B's name, a site route refuses A (or its input) before anything else.
          if (input.site === 'B' && operation.site) expect([400, 403], what).toContain(response.status);
          const sent = `${path} ${search} ${method === 'GET' ? '' : JSON.stringify(input.body)}`;
          assertRevealsNothingOfB(response, `${sent} ${planted}`, what);
          if (method !== 'GET') planted += ` ${sent}`;
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
      covered.push(`${method} ${operation.path}`);
    }
    expect(covered.length).toBeGreaterThan(40);
    // B is exactly as it was: no read of A changed it, no decision of A decided it, no event of A went to its log.
    expect(await snapshotOf(tenants.B)).toEqual(before);
    const { meta: eventsAfter } = (await server.request('GET', '/ai/approvals', { token: tenants.B.token, siteId: tenants.B.siteId }))
      .body as { meta: { seq: number } };
    expect(eventsAfter.seq).toBe(eventsBefore.seq);
    console.info(`two-tenants-every-route: ${covered.length} routes × ${RUNS_PER_ROUTE} requests by A with B's ids; B unchanged`);
  }, 240_000);
});

// Property: for generated request sequences by admins of two sites, nothing of one site is read, changed or revealed through the other.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, startTestServer, type TestServer, withoutRequestId } from '../../test-support/test-server.js';

type Tenant = 'A' | 'B';
const TENANTS: Tenant[] = ['A', 'B'];
const other = (tenant: Tenant): Tenant => (tenant === 'A' ? 'B' : 'A');
const COLLECTIONS = ['posts', 'notes', 'tags'] as const;
const EXTRA_FIELDS = ['summary', 'score'] as const;
const NONEXISTENT_ID = 'fedcba9876543210fedcba98';

/** What each site should hold: the test's model of the system, updated only by answers it expected. */
interface SiteModel {
  siteId: string;
  token: string;
  /** collection name → its extra fields */
  collections: Map<string, Set<string>>;
  /** item id → its collection and title */
  items: Map<string, { collection: string; title: string }>;
  /** ids that existed once: addressing them must answer like any foreign id */
  deletedItems: string[];
  members: Set<string>;
}

type Command =
  | { kind: 'createCollection'; actor: Tenant; name: string }
  | { kind: 'deleteCollection'; actor: Tenant; name: string }
  | { kind: 'addField'; actor: Tenant; collection: string; field: string }
  | { kind: 'deleteField'; actor: Tenant; collection: string; field: string }
  | { kind: 'createItem'; actor: Tenant; collection: string }
  | { kind: 'listItems'; actor: Tenant; collection: string }
  | { kind: 'readItem' | 'updateItem' | 'deleteItem'; actor: Tenant; owner: Tenant; pick: number; deleted: boolean }
  | { kind: 'putMember' | 'removeMember'; actor: Tenant; target: Tenant };

const tenant = fc.constantFrom<Tenant>('A', 'B');
const collection = fc.constantFrom(...COLLECTIONS);
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('createCollection' as const), actor: tenant, name: collection }),
  fc.record({ kind: fc.constant('deleteCollection' as const), actor: tenant, name: collection }),
  fc.record({ kind: fc.constant('addField' as const), actor: tenant, collection, field: fc.constantFrom(...EXTRA_FIELDS) }),
  fc.record({ kind: fc.constant('deleteField' as const), actor: tenant, collection, field: fc.constantFrom(...EXTRA_FIELDS) }),
  fc.record({ kind: fc.constant('createItem' as const), actor: tenant, collection }),
  fc.record({ kind: fc.constant('listItems' as const), actor: tenant, collection }),
  fc.record({
    kind: fc.constantFrom('readItem' as const, 'updateItem' as const, 'deleteItem' as const),
    actor: tenant,
    owner: tenant,
    pick: fc.nat(),
    deleted: fc.boolean(),
  }),
  fc.record({ kind: fc.constantFrom('putMember' as const, 'removeMember' as const), actor: tenant, target: tenant }),
);

let server: TestServer;
const sites = {} as Record<Tenant, SiteModel>;
/** A user per tenant whose membership commands move around. */
const bystanders = {} as Record<Tenant, string>;
let forbiddenRecordBody: unknown;
let titleCounter = 0;

beforeAll(async () => {
  server = await startTestServer('two-tenants');
  for (const name of TENANTS) {
    const siteId = await server.createSite(`Tenant ${name}`);
    const admin = await server.createMember({ siteId, role: 'admin' });
    const bystander = await server.createMember({ siteId, role: 'viewer' });
    bystanders[name] = bystander.id;
    sites[name] = {
      siteId,
      token: admin.token,
      collections: new Map(),
      items: new Map(),
      deletedItems: [],
      members: new Set([admin.id, bystander.id]),
    };
  }
  await server.request('POST', '/collections', { token: sites.A.token, siteId: sites.A.siteId, body: { name: 'probe', fields: [] } });
  forbiddenRecordBody = withoutRequestId(
    (await server.request('GET', '/items/probe/not-an-id', { token: sites.A.token, siteId: sites.A.siteId })).body,
  );
  await server.request('DELETE', '/collections/probe', { token: sites.A.token, siteId: sites.A.siteId });
});
afterAll(async () => server?.close());

function call(actor: Tenant, method: string, path: string, body?: unknown): Promise<ApiResponse> {
  return server.request(method, path, { token: sites[actor].token, siteId: sites[actor].siteId, ...(body !== undefined ? { body } : {}) });
}

/** Nothing that identifies the other site's content may appear in an answer to `actor`. */
function assertReveals(actor: Tenant, response: ApiResponse): void {
  const text = JSON.stringify(response.body ?? '');
  const theirs = sites[other(actor)];
  expect(text).not.toContain(`tenant${other(actor)}-`);
  expect(text).not.toContain(theirs.siteId);
  for (const id of [...theirs.items.keys(), ...theirs.deletedItems]) expect(text).not.toContain(id);
}

function pickItem(command: Extract<Command, { pick: number }>): { id: string; collection: string } {
  const owner = sites[command.owner];
  const pool = command.deleted ? owner.deletedItems.map((id) => [id, { collection: 'posts' }] as const) : [...owner.items.entries()];
  if (pool.length === 0) return { id: NONEXISTENT_ID, collection: 'posts' };
  const [id, item] = pool[command.pick % pool.length]!;
  return { id, collection: item.collection };
}

async function run(command: Command): Promise<void> {
  const site = sites[command.actor];
  let response: ApiResponse;
  switch (command.kind) {
    case 'createCollection': {
      response = await call(command.actor, 'POST', '/collections', {
        name: command.name,
        fields: [{ name: 'title', type: 'string', required: true }],
      });
      const exists = site.collections.has(command.name);
      expect(response.status).toBe(exists ? 409 : 201);
      if (!exists) site.collections.set(command.name, new Set());
      break;
    }
    case 'deleteCollection': {
      response = await call(command.actor, 'DELETE', `/collections/${command.name}`);
      const exists = site.collections.has(command.name);
      expect(response.status).toBe(exists ? 204 : 404);
      if (exists) {
        site.collections.delete(command.name);
        for (const [id, item] of site.items) {
          if (item.collection !== command.name) continue;
          site.items.delete(id);
          site.deletedItems.push(id);
        }
      }
      break;
    }
    case 'addField':
    case 'deleteField': {
      const adding = command.kind === 'addField';
      response = adding
        ? await call(command.actor, 'POST', `/collections/${command.collection}/fields`, { name: command.field, type: 'string' })
        : await call(command.actor, 'DELETE', `/collections/${command.collection}/fields/${command.field}`);
      const fields = site.collections.get(command.collection);
      if (!fields) expect(response.status).toBe(404);
      else if (adding) {
        expect(response.status).toBe(fields.has(command.field) ? 409 : 201);
        fields.add(command.field);
      } else {
        expect(response.status).toBe(fields.has(command.field) ? 204 : 404);
        fields.delete(command.field);
      }
      break;
    }
    case 'createItem': {
      const title = `tenant${command.actor}-${++titleCounter}`;
      response = await call(command.actor, 'POST', `/items/${command.collection}`, { data: { title } });
      if (!site.collections.has(command.collection)) expect(response.status).toBe(404);
      else {
        expect(response.status).toBe(201);
        site.items.set(response.body.data.id, { collection: command.collection, title });
      }
      break;
    }
    case 'listItems': {
      response = await call(command.actor, 'GET', `/items/${command.collection}?limit=100`);
      if (!site.collections.has(command.collection)) expect(response.status).toBe(404);
      else {
        expect(response.status).toBe(200);
        const expected = [...site.items.values()].filter((item) => item.collection === command.collection);
        expect(response.body.meta.total).toBe(expected.length);
        for (const item of response.body.data) expect(site.items.get(item.id)?.title).toBe(item.data.title);
      }
      break;
    }
    case 'readItem':
    case 'updateItem':
    case 'deleteItem': {
      const target = pickItem(command);
      const path = `/items/${target.collection}/${target.id}`;
      const title = `tenant${command.actor}-${++titleCounter}`;
      response =
        command.kind === 'readItem'
          ? await call(command.actor, 'GET', path)
          : command.kind === 'updateItem'
            ? await call(command.actor, 'PATCH', path, { data: { title } })
            : await call(command.actor, 'DELETE', path);
      const mine = site.items.get(target.id);
      if (!site.collections.has(target.collection)) expect(response.status).toBe(404);
      else if (!mine || command.owner !== command.actor) {
        expect(response.status).toBe(403);
        expect(withoutRequestId(response.body)).toEqual(forbiddenRecordBody);
      } else if (command.kind === 'readItem') {
        expect(response.status).toBe(200);
        expect(response.body.data.data.title).toBe(mine.title);
      } else if (command.kind === 'updateItem') {
        expect(response.status).toBe(200);
        mine.title = title;
      } else {
        expect(response.status).toBe(204);
        site.items.delete(target.id);
        site.deletedItems.push(target.id);
      }
      break;
    }
    case 'putMember':
    case 'removeMember': {
      const userId = bystanders[command.target];
      if (command.kind === 'putMember') {
        response = await call(command.actor, 'PUT', `/members/${userId}`, { role: 'viewer' });
        expect(response.status).toBe(200);
        site.members.add(userId);
      } else {
        response = await call(command.actor, 'DELETE', `/members/${userId}`);
        expect(response.status).toBe(site.members.has(userId) ? 204 : 403);
        site.members.delete(userId);
      }
      break;
    }
  }
  assertReveals(command.actor, response);
}

/** Each site, read by its own admin, holds exactly what its model says: the other site changed nothing. */
async function assertSitesMatchModels(): Promise<void> {
  await Promise.all(
    TENANTS.map(async (name) => {
      const site = sites[name];
      const [collections, members] = await Promise.all([
        call(name, 'GET', '/collections?limit=100'),
        call(name, 'GET', '/members?limit=100'),
      ]);
      expect(collections.body.data.map((entry: { name: string }) => entry.name).sort()).toEqual([...site.collections.keys()].sort());
      for (const entry of collections.body.data as Array<{ name: string; fields: Array<{ name: string }> }>) {
        expect(entry.fields.map((field) => field.name).sort()).toEqual(['title', ...site.collections.get(entry.name)!].sort());
      }
      expect(members.body.data.map((member: { userId: string }) => member.userId).sort()).toEqual([...site.members].sort());
      for (const response of [collections, members]) assertReveals(name, response);
    }),
  );
}

describe('two tenants', () => {
  it('never lets one site read, change or learn anything of the other', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 6 }), async (commands) => {
        for (const next of commands) await run(next);
        await assertSitesMatchModels();
      }),
      { numRuns: 100 },
    );
    // The sequences did reach both sides of the wall.
    expect(sites.A.items.size + sites.A.deletedItems.length).toBeGreaterThan(0);
    expect(sites.B.items.size + sites.B.deletedItems.length).toBeGreaterThan(0);
  }, 120_000);
});

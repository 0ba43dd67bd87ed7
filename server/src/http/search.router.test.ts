// GET /ai/search and the searchItems skill over HTTP on the real composed server (embeddings through the real queue).
import { ChatResponse, SearchResponse } from '@lumibase/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { isErrorEnvelope, startTestServer, type TestServer } from '../../test-support/test-server.js';

let server: TestServer;
let siteId: string;
let otherSiteId: string;
let viewer: { token: string };
let outsider: { token: string };
const ids: Record<string, string> = {};

const RECIPES = {
  name: 'recipes',
  label: 'Recipes',
  fields: [
    { name: 'title', type: 'string', required: true },
    { name: 'body', type: 'text' },
    { name: 'course', type: 'enum', options: { values: ['starter', 'main', 'dessert'] } },
  ],
};
const TRIPS = {
  name: 'trips',
  fields: [
    { name: 'title', type: 'string', required: true },
    { name: 'body', type: 'text' },
  ],
};

function search(query: string, token = server.adminToken, site = siteId) {
  return server.request('GET', `/ai/search${query}`, { token, siteId: site });
}

async function create(collection: string, data: Record<string, unknown>, site = siteId): Promise<string> {
  const response = await server.request('POST', `/items/${collection}`, { token: server.adminToken, siteId: site, body: { data } });
  expect(response.status).toBe(201);
  return response.body.data.id as string;
}

beforeAll(async () => {
  server = await startTestServer('search_router', { CHAT_RATE_LIMIT_PER_MINUTE: '1000' });
  siteId = await server.createSite('Search');
  otherSiteId = await server.createSite('Search elsewhere');
  viewer = await server.createMember({ siteId, role: 'viewer' });
  outsider = await server.createMember({ siteId: otherSiteId, role: 'admin' });
  for (const [site, collection] of [
    [siteId, RECIPES],
    [siteId, TRIPS],
    [otherSiteId, RECIPES],
  ] as const) {
    expect((await server.request('POST', '/collections', { token: server.adminToken, siteId: site, body: collection })).status).toBe(201);
  }
  ids.cake = await create('recipes', {
    title: 'Chocolate cake',
    body: 'Bake the chocolate sponge and frost it with ganache.',
    course: 'dessert',
  });
  ids.soup = await create('recipes', { title: 'Tomato soup', body: 'Simmer tomatoes with garlic and basil.', course: 'starter' });
  ids.alps = await create('trips', { title: 'Hiking the Alps', body: 'Mountain huts, glaciers and alpine trails in summer.' });
  ids.elsewhere = await create('recipes', { title: 'Chocolate cake from elsewhere', body: 'Another site’s chocolate cake.' }, otherSiteId);
  await eventually(async () => expect((await search('?q=cake')).body.meta.pending).toBe(0));
}, 90_000);
afterAll(async () => server?.close());

describe('GET /ai/search', () => {
  it('answers the nearest items of the caller’s site, best first, in the contract’s shape', async () => {
    const response = await search('?q=chocolate%20cake%20with%20ganache');
    expect(response.status).toBe(200);
    expect(SearchResponse.strict().safeParse(response.body).success).toBe(true);
    const [best] = response.body.data;
    expect(best).toMatchObject({ collection: 'recipes', id: ids.cake, item: { id: ids.cake, collection: 'recipes' } });
    expect(best.snippet).toContain('Chocolate cake');
    expect(best.score).toBeGreaterThan(0.2);
    expect(best.score).toBeLessThanOrEqual(1);
    const scores = response.body.data.map((hit: { score: number }) => hit.score);
    expect(scores).toEqual([...scores].sort((left, right) => right - left));
    expect(response.body.data.map((hit: { id: string }) => hit.id)).not.toContain(ids.elsewhere);
    expect(response.body.meta).toEqual({ model: 'local-hash-v1', pending: 0 });
  });

  it('searches one collection with `collection`, and at most `limit` items', async () => {
    const trips = await search('?q=chocolate%20cake%20on%20alpine%20trails&collection=trips');
    expect(trips.status).toBe(200);
    expect(trips.body.data.map((hit: { id: string }) => hit.id)).toEqual([ids.alps]);
    const one = await search('?q=recipe&limit=1');
    expect(one.body.data).toHaveLength(1);
    const all = await search('?q=recipes');
    expect(all.body.data.length).toBeGreaterThanOrEqual(2);
    expect(all.body.data.map((hit: { id: string }) => hit.id)).toEqual(expect.arrayContaining([ids.cake, ids.soup]));
    // Items sharing nothing with the query are no results.
    expect((await search('?q=zyxwvut')).body.data).toEqual([]);
  });

  it.each([
    ['no q', '', ['q']],
    ['an empty q', '?q=', ['q']],
    ['a blank q', '?q=%20%20', ['q']],
    ['a q of 501 characters', `?q=${'a'.repeat(501)}`, ['q']],
    ['limit 0', '?q=cake&limit=0', ['limit']],
    ['limit 51', '?q=cake&limit=51', ['limit']],
    ['a non-numeric limit', '?q=cake&limit=ten', ['limit']],
    ['a malformed collection name', '?q=cake&collection=Bad-Name', ['collection']],
    ['two q values', '?q=a&q=b', ['q']],
  ])('answers 400 with details for %s', async (_name, query, paths) => {
    const response = await search(query);
    expect(response.status).toBe(400);
    expect(isErrorEnvelope(response.body)).toBe(true);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(paths);
  });

  it('accepts a q of exactly 500 characters and limit 50', async () => {
    expect((await search(`?q=${'a'.repeat(500)}&limit=50`)).status).toBe(200);
  });

  it('answers 404 for a collection the site lacks', async () => {
    const response = await search('?q=cake&collection=nothing_here');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
  });

  it('needs content:read (every role has it), credentials and a site the caller is in', async () => {
    expect((await search('?q=cake', viewer.token)).status).toBe(200);
    const refused = await search('?q=cake', outsider.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect((await server.request('GET', '/ai/search?q=cake', { siteId })).status).toBe(401);
    expect((await server.request('GET', '/ai/search?q=cake', { token: viewer.token })).status).toBe(400);
    // The other site's admin searches their own site and never sees this one's items.
    const theirs = await search('?q=chocolate%20cake', outsider.token, otherSiteId);
    expect(theirs.body.data.map((hit: { id: string }) => hit.id)).toEqual([ids.elsewhere]);
  });

  it('counts items not embedded yet in meta.pending, then finds them once embedded', async () => {
    const id = await create('trips', { title: 'Kayaking fjords', body: 'Paddling the Norwegian fjords.' });
    const right = await search('?q=kayak%20fjords');
    // The job waits EMBEDDINGS_DEBOUNCE_MS (250 ms) before it runs: right after the write the item is pending.
    expect(right.body.meta.pending).toBeGreaterThanOrEqual(1);
    await eventually(async () => {
      const later = await search('?q=kayak%20fjords');
      expect(later.body.meta.pending).toBe(0);
      expect(later.body.data[0].id).toBe(id);
    });
  });
});

describe('the searchItems skill under echo', () => {
  it('answers `search for …` and `search <collection> for …` with the nearest items, as data', async () => {
    const chat = (message: string) => server.request('POST', '/ai/chat', { token: server.adminToken, siteId, body: { message } });
    const everywhere = await chat('search for chocolate cake');
    expect(everywhere.status).toBe(200);
    expect(ChatResponse.safeParse(everywhere.body.data).success).toBe(true);
    expect(everywhere.body.data).toMatchObject({
      status: 'executed',
      skill: { name: 'searchItems', arguments: { query: 'chocolate cake' } },
    });
    expect(everywhere.body.data.data.items[0]).toMatchObject({ collection: 'recipes', id: ids.cake });
    expect(everywhere.body.data.data.model).toBe('local-hash-v1');
    console.log('chat transcript (echo):\n> search for chocolate cake\n', JSON.stringify(everywhere.body.data, null, 1).slice(0, 1500));
    const trips = await chat('search trips for mountains');
    expect(trips.body.data).toMatchObject({ status: 'executed', skill: { name: 'searchItems' }, data: { collection: 'trips' } });
    expect(trips.body.data.data.items.map((hit: { id: string }) => hit.id)).toEqual(expect.arrayContaining([ids.alps]));
    const unknown = await chat('search nothing_here for mountains');
    expect(unknown.body.data.status).toBe('denied');
  });
});

describe('the RAG skills under echo', () => {
  it('suggest a field the collection lacks and draft a value that fits, from retrieval alone (transcript)', async () => {
    const chat = (message: string) => server.request('POST', '/ai/chat', { token: server.adminToken, siteId, body: { message } });
    const suggested = (await chat('suggest field for recipes: how long it takes to cook, in minutes')).body.data;
    expect(suggested).toMatchObject({ status: 'executed', skill: { name: 'aiSuggestField' } });
    expect(['title', 'body', 'course']).not.toContain(suggested.data.suggestion.name);
    const assisted = (await chat(`assist body in recipes: a rich chocolate dessert`)).body.data;
    expect(assisted).toMatchObject({ status: 'executed', skill: { name: 'aiContentAssist' }, data: { field: 'body' } });
    expect(typeof assisted.data.value).toBe('string');
    const course = (await chat('assist course in recipes: a chocolate dessert')).body.data;
    expect(course.data.value).toBe('dessert');
    for (const [message, reply] of [
      ['suggest field for recipes: how long it takes to cook, in minutes', suggested],
      ['assist body in recipes: a rich chocolate dessert', assisted],
      ['assist course in recipes: a chocolate dessert', course],
    ] as const) {
      console.log(`> ${message}\n${JSON.stringify({ status: reply.status, message: reply.message, data: reply.data }, null, 1)}`);
    }
  });
});

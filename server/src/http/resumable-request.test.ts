// The idempotency middleware's `resumable` comes from the routes declared `resumable`: on a literal table of requests
// it answers what the hand-written patterns it replaced answered (POST /items/:collection, /collections,
// /collections/:name/fields, each with an optional trailing slash).
import { describe, expect, it } from 'vitest';
import { isResumableCreate } from './api.router.js';
import { resumableRequest } from './resumable-request.js';
import { declareRoute } from './route.js';
import { ROUTES } from './routes.js';

/** The patterns api.router.ts held before the declarations said it. */
const OLD_RESUMABLE_CREATES = [/^\/items\/[^/]+\/?$/, /^\/collections\/?$/, /^\/collections\/[^/]+\/fields\/?$/];
function oldIsResumableCreate(request: { method: string; path: string }): boolean {
  return request.method === 'POST' && OLD_RESUMABLE_CREATES.some((pattern) => pattern.test(request.path));
}

// [method, path below /api/v1, resumable]
const TABLE: Array<[string, string, boolean]> = [
  ['POST', '/items/posts', true],
  ['POST', '/items/posts/', true],
  ['POST', '/items/a%20b', true],
  ['POST', '/items/posts/x', false],
  ['POST', '/items', false],
  ['POST', '/items/', false],
  ['POST', '/items//', false],
  ['PATCH', '/items/posts', false],
  ['PUT', '/items/posts', false],
  ['GET', '/items/posts', false],
  ['DELETE', '/items/posts', false],
  ['post', '/items/posts', false],
  ['POST', '/Items/posts', false],
  ['POST', '/collections', true],
  ['POST', '/collections/', true],
  ['GET', '/collections', false],
  ['POST', '/collections/posts', false],
  ['POST', '/collections/posts/fields', true],
  ['POST', '/collections/posts/fields/', true],
  ['PATCH', '/collections/posts/fields', false],
  ['POST', '/collections/posts/fields/title', false],
  ['POST', '/collections//fields', false],
  ['POST', '/items/posts/x/revisions/1/restore', false],
  ['POST', '/trash/x/restore', false],
  ['POST', '/webhooks', false],
  ['POST', '/members', false],
  ['POST', '/ai/chat', false],
  ['POST', '/ai/skills/create_collection', false],
  ['POST', '/sites', false],
  ['POST', '/users', false],
  ['POST', '/api/v1/items/posts', false],
  ['POST', '/xitems/posts', false],
  ['POST', '/items/a:b', true],
];

describe('resumable creates, from the declarations', () => {
  it.each(TABLE)('%s %s → %s, as the old patterns said', (method, path, expected) => {
    expect(oldIsResumableCreate({ method, path })).toBe(expected);
    expect(isResumableCreate({ method, path })).toBe(expected);
  });

  it('are the three creates that carry the operation id', () => {
    const declared = ROUTES.filter((route) => route.resumable).map((route) => `${route.method} ${route.path}`);
    expect(declared.sort()).toEqual([
      'post /api/v1/collections',
      'post /api/v1/collections/:name/fields',
      'post /api/v1/items/:collection',
    ]);
  });

  it('matches an optional segment and escapes literal characters', () => {
    const route = declareRoute({
      method: 'put',
      path: '/api/v1/things.v2/:id{/:part}',
      summary: 'A thing',
      tag: 'Test',
      auth: 'session',
      resumable: true,
      success: { status: 200, description: 'Done' },
    });
    const resumable = resumableRequest([route], '/api/v1');
    expect(resumable({ method: 'PUT', path: '/things.v2/1' })).toBe(true);
    expect(resumable({ method: 'PUT', path: '/things.v2/1/2/' })).toBe(true);
    expect(resumable({ method: 'PUT', path: '/thingsXv2/1' })).toBe(false);
    expect(resumable({ method: 'PUT', path: '/things.v2/1/2/3' })).toBe(false);
    expect(() => resumableRequest([{ ...route, path: '/elsewhere/:id' }], '/api/v1')).toThrow(TypeError);
  });
});

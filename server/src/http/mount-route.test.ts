// A router's mount path comes from its declarations (mountPathOf): the composition no longer writes `/ai` or `/trash`,
// and each feature router lands where its declared paths say, under a prefix tenancy guards.
import { describe, expect, it } from 'vitest';
import { AI_NOTICES_ROUTES, createAiNoticesRouter } from './ai-notices.router.js';
import { AI_SKILLS_ROUTES, createAiSkillsRouter } from './ai-skills.router.js';
import { AI_ROUTES, createAiRouter } from './ai.router.js';
import { SITE_SCOPED_PREFIXES } from './api.router.js';
import { mountPathOf, mountedRouter, declaredRouter } from './mount-route.js';
import { REVISIONS_ROUTES, createRevisionsRouter } from './revisions.router.js';
import { declareRoute, type RouteDeclaration } from './route.js';
import { SEARCH_ROUTES, createSearchRouter } from './search.router.js';
import { TRASH_ROUTES, createTrashRouter } from './trash.router.js';
import { WEBHOOKS_ROUTES, createWebhooksRouter } from './webhooks.router.js';

function at(path: string): RouteDeclaration {
  return declareRoute({ method: 'get', path, summary: path, tag: 'Test', auth: 'session', success: { status: 200, description: 'Done' } });
}

describe('mountPathOf', () => {
  it('is the literal segments the declared paths share, up to the first parameter', () => {
    expect(mountPathOf({ a: at('/api/v1/ai/chat'), b: at('/api/v1/ai/approvals/:id') })).toBe('/api/v1/ai');
    expect(mountPathOf({ a: at('/api/v1/items/:collection/:id/revisions') })).toBe('/api/v1/items');
    expect(mountPathOf({ a: at('/api/v1/ai/notices') })).toBe('/api/v1/ai/notices');
    expect(mountPathOf({ a: at('/api/v1/trash'), b: at('/api/v1/trash/:id/restore') })).toBe('/api/v1/trash');
    expect(mountPathOf({ a: at('/api/v1/things{/:id}') })).toBe('/api/v1');
    expect(mountPathOf({ a: at('/api/v1/aix'), b: at('/api/v1/ai') })).toBe('/api/v1');
    expect(() => mountPathOf({})).toThrow(TypeError);
  });

  it('gives the API router a path below /api/v1 only', () => {
    expect(mountedRouter(declaredRouter({ base: '/api/v1/ai' })).path).toBe('/ai');
    expect(() => mountedRouter(declaredRouter({ base: '/admin' }))).toThrow(TypeError);
    expect(() => mountedRouter(declaredRouter({ base: '/api/v1' }))).toThrow(TypeError);
  });
});

describe('the feature routers mount where their declarations say', () => {
  const unused = {} as never;
  const mounted = {
    ai: [createAiRouter({ chat: unused, approvals: unused, conversations: unused, audit: unused, policy: unused }), AI_ROUTES],
    skills: [createAiSkillsRouter({ skills: unused }), AI_SKILLS_ROUTES],
    notices: [createAiNoticesRouter({ notices: unused, currentSeq: unused }), AI_NOTICES_ROUTES],
    search: [createSearchRouter({ search: unused, rateLimiter: unused }), SEARCH_ROUTES],
    revisions: [createRevisionsRouter({ revisions: unused }), REVISIONS_ROUTES],
    trash: [createTrashRouter({ trash: unused }), TRASH_ROUTES],
    webhooks: [createWebhooksRouter({ webhooks: unused }), WEBHOOKS_ROUTES],
  } as const;

  it('at these paths, each under a site-scoped prefix, with every declared path below it', () => {
    const paths = Object.fromEntries(Object.entries(mounted).map(([name, [router]]) => [name, router.path]));
    expect(paths).toEqual({
      ai: '/ai',
      skills: '/ai/skills',
      notices: '/ai/notices',
      search: '/ai/search',
      revisions: '/items',
      trash: '/trash',
      webhooks: '/webhooks',
    });
    for (const [router, declarations] of Object.values(mounted)) {
      expect(SITE_SCOPED_PREFIXES).toContain(`/${router.path.split('/')[1]}`);
      for (const route of Object.values(declarations) as RouteDeclaration[])
        expect(route.path.startsWith(`/api/v1${router.path}`)).toBe(true);
    }
  });
});

// GET /ai/search: semantic search over the X-Site-Id site's items (`content:read`).
import { SearchQuery, SearchResponse } from '@lumibase/shared';
import type { SearchService } from '../retrieval/search/search.service.js';
import { actorOf } from './ai.router.js';
import { declaredRouter, type MountedRouter, mountedRouter, mountPathOf } from './mount-route.js';
import { currentSiteId } from './require-capabilities.js';
import { declareRoute } from './route.js';

export const SEARCH_ROUTES = {
  search: declareRoute({
    method: 'get',
    path: '/api/v1/ai/search',
    summary: "Semantic search over the site's items, best match first (`pending`: items not embedded yet)",
    tag: 'Copilot',
    auth: 'session',
    site: true,
    access: { capabilities: ['content:read'] },
    query: SearchQuery,
    success: { status: 200, description: 'The nearest items with their cosine score and a snippet', schema: SearchResponse },
    errors: [404, 429, 503],
  }),
};

export interface SearchRouterOptions {
  search: Pick<SearchService, 'search'>;
  /** The per-user limit on model and embedding calls (a search embeds its query), shared with /ai/chat and /ai/skills. */
  rateLimiter: { consume(userId: string): Promise<void> };
}

/** Mounted below /api/v1 at the path its declarations share (mountPathOf), after tenancy. */
export function createSearchRouter({ search, rateLimiter }: SearchRouterOptions): MountedRouter {
  const declared = declaredRouter({ base: mountPathOf(SEARCH_ROUTES) }).route(
    SEARCH_ROUTES.search,
    async ({ query }, request, response) => {
      const { q, collection, limit } = query;
      // The limit's check runs beside the search's first reads; the search awaits it before embedding the query.
      const admitted = rateLimiter.consume(actorOf(request).id);
      // Handled here too: a search that failed before awaiting it must not leave a rejection nobody handles.
      admitted.catch(() => {});
      const result = await search.search(currentSiteId(request), { query: q, collection, limit, admitted });
      response.status(200).json(result);
    },
  );
  return mountedRouter(declared);
}

// GET /ai/search: semantic search over the X-Site-Id site's items (`content:read`).
import { SearchQuery } from '@lumibase/shared';
import { Router } from 'express';
import type { SearchService } from '../search/search.service.js';
import { parseInput } from './parse-input.js';
import { currentSiteId, requireCapabilities } from './require-capabilities.js';

/** Mounted at /ai after tenancy. */
export function createSearchRouter({ search }: { search: Pick<SearchService, 'search'> }): Router {
  const router = Router();
  router.get('/search', requireCapabilities('content:read'), async (request, response) => {
    const { q, collection, limit } = parseInput(SearchQuery, request.query, 'query');
    const result = await search.search(currentSiteId(request), { query: q, collection, limit });
    response.status(200).json(result);
  });
  return router;
}

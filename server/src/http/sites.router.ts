// POST /sites (superadmin), GET /sites (the caller's sites; all of them for a superadmin).
import { CreateSiteRequest, ListQuery } from '@lumibase/shared';
import { Router } from 'express';
import type { SitesService } from '../services/sites.service.js';
import { parseInput, sendData } from './parse-input.js';
import { currentUser, requireSuperadmin } from './require-capabilities.js';

export function createSitesRouter({ sites }: { sites: SitesService }): Router {
  const router = Router();
  router.post('/sites', requireSuperadmin(), async (request, response) => {
    const { name } = parseInput(CreateSiteRequest, request.body, 'body');
    sendData(response, 201, await sites.create(name));
  });
  router.get('/sites', async (request, response) => {
    const page = parseInput(ListQuery, request.query, 'query');
    const { records, total } = await sites.listFor(currentUser(request), page);
    sendData(response, 200, records, { total, ...page });
  });
  return router;
}

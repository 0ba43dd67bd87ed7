// POST /sites, PATCH /sites/:id, DELETE /sites/:id?confirm= (superadmin), GET /sites (the caller's sites; all for a superadmin).
import { CreateSiteRequest, DeleteSiteQuery, ListQuery, UpdateSiteRequest } from '@lumibase/shared';
import { Router } from 'express';
import type { SitesService } from '../services/sites.service.js';
import { parseInput, routeParam, sendData, sendNoContent } from './parse-input.js';
import { currentUser, requireSuperadmin } from './require-capabilities.js';

export function createSitesRouter({ sites }: { sites: SitesService }): Router {
  const router = Router();
  router.post('/sites', requireSuperadmin(), async (request, response) => {
    const { name } = parseInput(CreateSiteRequest, request.body, 'body');
    sendData(response, 201, await sites.create(name));
  });
  router.patch('/sites/:id', requireSuperadmin(), async (request, response) => {
    const { name } = parseInput(UpdateSiteRequest, request.body, 'body');
    sendData(response, 200, await sites.rename(routeParam(request, 'id'), name));
  });
  router.delete('/sites/:id', requireSuperadmin(), async (request, response) => {
    const { confirm } = parseInput(DeleteSiteQuery, request.query, 'query');
    await sites.remove(routeParam(request, 'id'), confirm);
    sendNoContent(response);
  });
  router.get('/sites', async (request, response) => {
    const page = parseInput(ListQuery, request.query, 'query');
    const { records, total } = await sites.listFor(currentUser(request), page);
    sendData(response, 200, records, { total, ...page });
  });
  return router;
}

// POST /sites, PATCH /sites/:id, DELETE /sites/:id?confirm= (superadmin), GET /sites (the caller's sites; all for a superadmin).
import { CreateSiteRequest, DeleteSiteQuery, ListQuery, SiteListResponse, SiteResponse, UpdateSiteRequest } from '@lumibase/shared';
import type { Router } from 'express';
import type { SitesService } from '../services/sites.service.js';
import { declaredRouter } from './mount-route.js';
import { sendData, sendNoContent } from './parse-input.js';
import { currentUser } from './require-capabilities.js';
import { API_BASE, declareRoute, NO_CONTENT } from './route.js';

export const SITES_ROUTES = {
  create: declareRoute({
    method: 'post',
    path: '/api/v1/sites',
    summary: 'Create a site',
    tag: 'Sites',
    auth: 'session',
    access: { superadmin: 'only' },
    body: CreateSiteRequest,
    success: { status: 201, description: 'Created', schema: SiteResponse },
    errors: [400, 403],
  }),
  list: declareRoute({
    method: 'get',
    path: '/api/v1/sites',
    summary: "The caller's sites (every site for a superadmin)",
    tag: 'Sites',
    auth: 'session',
    query: ListQuery,
    success: { status: 200, description: 'Sites', schema: SiteListResponse },
    errors: [400],
  }),
  rename: declareRoute({
    method: 'patch',
    path: '/api/v1/sites/:id',
    summary: 'Rename a site',
    tag: 'Sites',
    auth: 'session',
    access: { superadmin: 'only' },
    body: UpdateSiteRequest,
    success: { status: 200, description: 'The site', schema: SiteResponse },
    errors: [400, 403],
  }),
  remove: declareRoute({
    method: 'delete',
    path: '/api/v1/sites/:id',
    summary: 'Delete a site and everything in it; `confirm` must be its exact name',
    tag: 'Sites',
    auth: 'session',
    access: { superadmin: 'only' },
    query: DeleteSiteQuery,
    success: NO_CONTENT,
    errors: [400, 403],
  }),
};

export function createSitesRouter({ sites }: { sites: SitesService }): Router {
  return declaredRouter({ base: API_BASE })
    .route(SITES_ROUTES.create, async ({ body }, _request, response) => {
      sendData(response, 201, await sites.create(body.name));
    })
    .route(SITES_ROUTES.rename, async ({ params, body }, _request, response) => {
      sendData(response, 200, await sites.rename(params.id, body.name));
    })
    .route(SITES_ROUTES.remove, async ({ params, query }, _request, response) => {
      await sites.remove(params.id, query.confirm);
      sendNoContent(response);
    })
    .route(SITES_ROUTES.list, async ({ query: page }, request, response) => {
      const { records, total } = await sites.listFor(currentUser(request), page);
      sendData(response, 200, records, { total, ...page });
    }).router;
}

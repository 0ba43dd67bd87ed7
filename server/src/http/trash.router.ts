// The trash of the X-Site-Id site, mounted at /trash: listing needs schema:read, restoring schema:write.
import { ListQuery, TrashIdParam, TrashListResponse, TrashRestoreResponse } from '@lumibase/shared';
import type { Router } from 'express';
import { z } from 'zod';
import type { TrashService } from '../services/trash.service.js';
import { declaredRouter } from './mount-route.js';
import { sendData } from './parse-input.js';
import { currentSiteId, currentUser } from './require-capabilities.js';
import { declareRoute } from './route.js';

export const TRASH_ROUTES = {
  list: declareRoute({
    method: 'get',
    path: '/api/v1/trash',
    summary: 'Deleted collections and fields still restorable, newest first',
    tag: 'Content',
    auth: 'session',
    site: true,
    access: { capabilities: ['schema:read'] },
    query: ListQuery,
    success: { status: 200, description: 'Trash entries', schema: TrashListResponse },
    errors: [400],
  }),
  restore: declareRoute({
    method: 'post',
    path: '/api/v1/trash/:id/restore',
    summary: 'Restore a collection with its items (same ids), or a field with its values',
    tag: 'Content',
    auth: 'session',
    site: true,
    access: { capabilities: ['schema:write'] },
    params: z.object({ id: TrashIdParam }),
    success: { status: 200, description: 'What was restored', schema: TrashRestoreResponse },
    errors: [409],
  }),
};

/** Mounted at /trash after tenancy. */
export function createTrashRouter({ trash }: { trash: TrashService }): Router {
  return declaredRouter({ base: '/api/v1/trash' })
    .route(TRASH_ROUTES.list, async ({ query: page }, request, response) => {
      const { records, total } = await trash.list(currentSiteId(request), page);
      sendData(response, 200, records, { total, ...page });
    })
    .route(TRASH_ROUTES.restore, async ({ params }, request, response) => {
      const { id: userId, name } = currentUser(request);
      sendData(response, 200, await trash.restore(currentSiteId(request), params.id, { id: userId, name }));
    }).router;
}

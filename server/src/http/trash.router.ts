// The trash of the X-Site-Id site, mounted at /trash: listing needs schema:read, restoring schema:write.
import { ListQuery, TrashIdParam } from '@lumibase/shared';
import { Router } from 'express';
import type { TrashService } from '../services/trash.service.js';
import { parseInput, routeParam, sendData } from './parse-input.js';
import { currentSiteId, currentUser, requireCapabilities } from './require-capabilities.js';

export function createTrashRouter({ trash }: { trash: TrashService }): Router {
  const router = Router();

  router.get('/', requireCapabilities('schema:read'), async (request, response) => {
    const page = parseInput(ListQuery, request.query, 'query');
    const { records, total } = await trash.list(currentSiteId(request), page);
    sendData(response, 200, records, { total, ...page });
  });

  router.post('/:id/restore', requireCapabilities('schema:write'), async (request, response) => {
    const id = parseInput(TrashIdParam, routeParam(request, 'id'), 'params');
    const { id: userId, name } = currentUser(request);
    sendData(response, 200, await trash.restore(currentSiteId(request), id, { id: userId, name }));
  });
  return router;
}

// An item's revisions, mounted at /items in the X-Site-Id site: listing needs content:read, restoring content:write.
import { RevisionParam } from '@lumibase/shared';
import { Router } from 'express';
import type { RevisionsService } from '../services/revisions.service.js';
import { requireCollectionName } from './collection-name-param.js';
import { parseInput, routeParam, sendData } from './parse-input.js';
import { currentSiteId, currentUser, requireCapabilities } from './require-capabilities.js';

export function createRevisionsRouter({ revisions }: { revisions: RevisionsService }): Router {
  const router = Router();
  const checkCollectionName = requireCollectionName('collection');

  router.get('/:collection/:id/revisions', requireCapabilities('content:read'), checkCollectionName, async (request, response) => {
    sendData(response, 200, await revisions.list(currentSiteId(request), routeParam(request, 'collection'), routeParam(request, 'id')));
  });

  router.post(
    '/:collection/:id/revisions/:revision/restore',
    requireCapabilities('content:write'),
    checkCollectionName,
    async (request, response) => {
      const revision = parseInput(RevisionParam, routeParam(request, 'revision'), 'params');
      const { id, name } = currentUser(request);
      const restored = await revisions.restore(
        currentSiteId(request),
        routeParam(request, 'collection'),
        routeParam(request, 'id'),
        revision,
        { id, name },
      );
      sendData(response, 200, restored);
    },
  );
  return router;
}

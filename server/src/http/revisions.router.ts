// An item's revisions, mounted at /items in the X-Site-Id site: listing needs content:read, restoring content:write.
import { ItemResponse, ItemRevisionListResponse, RevisionParam } from '@lumibase/shared';
import { z } from 'zod';
import type { RevisionsService } from '../services/revisions.service.js';
import { requireCollectionName } from './collection-name-param.js';
import { declaredRouter, type MountedRouter, mountedRouter, mountPathOf } from './mount-route.js';
import { sendData } from './parse-input.js';
import { currentSiteId, currentUser } from './require-capabilities.js';
import { declareRoute } from './route.js';

export const REVISIONS_ROUTES = {
  list: declareRoute({
    method: 'get',
    path: '/api/v1/items/:collection/:id/revisions',
    summary: "An item's revisions, newest first (also for a deleted item)",
    tag: 'Content',
    auth: 'session',
    site: true,
    access: { capabilities: ['content:read'] },
    success: { status: 200, description: 'Revisions', schema: ItemRevisionListResponse },
  }),
  restore: declareRoute({
    method: 'post',
    path: '/api/v1/items/:collection/:id/revisions/:revision/restore',
    summary: 'Restore a revision (re-creates a deleted item under its id)',
    tag: 'Content',
    auth: 'session',
    site: true,
    access: { capabilities: ['content:write'] },
    params: z.object({ revision: RevisionParam }),
    success: { status: 200, description: 'The restored item', schema: ItemResponse },
    errors: [409],
  }),
};

/** Mounted below /api/v1 at the path its declarations share (mountPathOf), after tenancy. */
export function createRevisionsRouter({ revisions }: { revisions: RevisionsService }): MountedRouter {
  const named = [requireCollectionName('collection')];
  const declared = declaredRouter({ base: mountPathOf(REVISIONS_ROUTES) })
    .route(
      REVISIONS_ROUTES.list,
      async ({ params }, request, response) => {
        sendData(response, 200, await revisions.list(currentSiteId(request), params.collection, params.id));
      },
      named,
    )
    .route(
      REVISIONS_ROUTES.restore,
      async ({ params }, request, response) => {
        const { id, name } = currentUser(request);
        const restored = await revisions.restore(currentSiteId(request), params.collection, params.id, params.revision, { id, name });
        sendData(response, 200, restored);
      },
      named,
    );
  return mountedRouter(declared);
}

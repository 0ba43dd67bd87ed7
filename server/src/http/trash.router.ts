// The trash of the X-Site-Id site, mounted at /trash: collections and fields need schema:read to be listed and
// schema:write to be restored; items content:read and content:write.
import {
  type Capability,
  ForbiddenError,
  hasCapabilities,
  ListQuery,
  TrashIdParam,
  type TrashKind,
  TrashListResponse,
  TrashRestoreResponse,
} from '@lumibase/shared';
import type { Request } from 'express';
import { z } from 'zod';
import type { TrashAccess, TrashService } from '../services/trash.service.js';
import { declaredRouter, type MountedRouter, mountedRouter, mountPathOf } from './mount-route.js';
import { sendData } from './parse-input.js';
import { currentSiteId, currentUser } from './require-capabilities.js';
import { declareRoute } from './route.js';

export const TRASH_ROUTES = {
  list: declareRoute({
    method: 'get',
    path: '/api/v1/trash',
    summary: 'Deleted collections, fields and items still restorable, newest first',
    tag: 'Content',
    auth: 'session',
    site: true,
    access: { checks: ['trash-read'] },
    query: ListQuery,
    success: { status: 200, description: 'Trash entries', schema: TrashListResponse },
    errors: [400],
  }),
  restore: declareRoute({
    method: 'post',
    path: '/api/v1/trash/:id/restore',
    summary: 'Restore a collection with its items (same ids), a field with its values, or an item (same id)',
    tag: 'Content',
    auth: 'session',
    site: true,
    access: { checks: ['trash-write'] },
    params: z.object({ id: TrashIdParam }),
    success: { status: 200, description: 'What was restored', schema: TrashRestoreResponse },
    errors: [409],
  }),
};

/** The kinds of entry the caller may list (`read`) or restore (`write`) in the current site. */
function trashAccess(request: Request, mode: 'read' | 'write'): TrashAccess {
  const { user, capabilities = [] } = request.context;
  const holder = { capabilities, isSuperadmin: user?.isSuperadmin === true };
  const holds = (capability: Capability) => hasCapabilities(holder, [capability]);
  const kinds: TrashKind[] = [];
  if (holds(`schema:${mode}`)) kinds.push('collection', 'field');
  if (holds(`content:${mode}`)) kinds.push('item');
  if (kinds.length === 0) {
    throw new ForbiddenError({ message: `Missing capability: schema:${mode} or content:${mode}`, reason: 'missing-capability' });
  }
  return { kinds };
}

/** Mounted below /api/v1 at the path its declarations share (mountPathOf), after tenancy. */
export function createTrashRouter({ trash }: { trash: TrashService }): MountedRouter {
  const declared = declaredRouter({ base: mountPathOf(TRASH_ROUTES) })
    .route(TRASH_ROUTES.list, async ({ query: page }, request, response) => {
      const { records, total } = await trash.list(currentSiteId(request), page, trashAccess(request, 'read'));
      sendData(response, 200, records, { total, ...page, retentionDays: trash.retentionDays });
    })
    .route(TRASH_ROUTES.restore, async ({ params }, request, response) => {
      const { id: userId, name } = currentUser(request);
      const access = trashAccess(request, 'write');
      sendData(response, 200, await trash.restore(currentSiteId(request), params.id, { id: userId, name }, access));
    });
  return mountedRouter(declared);
}

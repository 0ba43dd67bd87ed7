// GET /ai/notices: the site's latest `warn`-tier calls (the Studio's "Recent Copilot actions"), newest first, with the
// site's event seq at the time of the read so that a client's socket continues from there (`approvals:decide`).
import { NoticeListResponse } from '@lumibase/shared';
import { NOTICE_LIST_MAX, type NoticeRepository } from '../store/ai/notice.store.js';
import { declaredRouter, type MountedRouter, mountedRouter, mountPathOf } from './mount-route.js';
import { sendData } from './parse-input.js';
import { currentSiteId } from './require-capabilities.js';
import { declareRoute } from './route.js';

export const AI_NOTICES_ROUTES = {
  list: declareRoute({
    method: 'get',
    path: '/api/v1/ai/notices',
    summary: 'The latest Copilot calls that ran with a notice (policy mode `warn`), newest first',
    tag: 'Approvals',
    auth: 'session',
    site: true,
    access: { capabilities: ['approvals:decide'] },
    success: { status: 200, description: 'Notices, with the site’s event seq at the time of the read', schema: NoticeListResponse },
  }),
};

export interface AiNoticesRouterOptions {
  notices: (siteId: string) => Pick<NoticeRepository, 'latest'>;
  currentSeq: (siteId: string) => Promise<number>;
}

/** Mounted below /api/v1 at the path its declarations share (mountPathOf), after tenancy. */
export function createAiNoticesRouter({ notices, currentSeq }: AiNoticesRouterOptions): MountedRouter {
  const declared = declaredRouter({ base: mountPathOf(AI_NOTICES_ROUTES) }).route(
    AI_NOTICES_ROUTES.list,
    async (_input, request, response) => {
      const siteId = currentSiteId(request);
      // The seq first: an event after it is replayed to the socket, so nothing falls between the list and the stream.
      const seq = await currentSeq(siteId);
      sendData(response, 200, await notices(siteId).latest(NOTICE_LIST_MAX), { seq });
    },
  );
  return mountedRouter(declared);
}

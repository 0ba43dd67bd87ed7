// POST /members, PUT/DELETE /members/:userId and GET /members, in the X-Site-Id site (users:write).
import { AddMemberRequest, ListQuery, PutMemberRequest } from '@lumibase/shared';
import { type Request, Router } from 'express';
import type { MemberActor, MembersService } from '../services/members.service.js';
import { IDEMPOTENT_REPLAY_BODY } from './idempotency.js';
import { parseInput, routeParam, sendData, sendNoContent } from './parse-input.js';
import { currentSiteId, currentUser, requireCapabilities } from './require-capabilities.js';

function memberActor(request: Request): MemberActor {
  return { user: currentUser(request), capabilities: request.context.capabilities ?? [] };
}

/** Mounted after tenancy. */
export function createMembersRouter({ members }: { members: MembersService }): Router {
  const router = Router();
  router.use('/members', requireCapabilities('users:write'));

  router.get('/members', async (request, response) => {
    const page = parseInput(ListQuery, request.query, 'query');
    const { records, total } = await members.list(currentSiteId(request), page);
    sendData(response, 200, records, { total, ...page });
  });

  router.post('/members', async (request, response) => {
    const input = parseInput(AddMemberRequest, request.body, 'body');
    const added = await members.add(currentSiteId(request), input, memberActor(request));
    // The password is answered once and never stored: a replay of this request answers the member alone.
    if (added.password !== undefined) response.locals[IDEMPOTENT_REPLAY_BODY] = JSON.stringify({ data: { member: added.member } });
    sendData(response, 201, added);
  });

  router.put('/members/:userId', async (request, response) => {
    const input = parseInput(PutMemberRequest, request.body, 'body');
    sendData(response, 200, await members.put(currentSiteId(request), routeParam(request, 'userId'), input, memberActor(request)));
  });

  router.delete('/members/:userId', async (request, response) => {
    await members.remove(currentSiteId(request), routeParam(request, 'userId'), memberActor(request));
    sendNoContent(response);
  });
  return router;
}

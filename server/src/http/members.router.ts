// POST /members, PUT/DELETE /members/:userId and GET /members, in the X-Site-Id site (users:write).
import { AddMemberRequest, AddMemberResponse, ListQuery, MemberListResponse, MemberResponse, PutMemberRequest } from '@lumibase/shared';
import type { Request, Router } from 'express';
import type { MemberActor, MembersService } from '../services/members.service.js';
import { IDEMPOTENT_REPLAY_BODY } from './idempotency.js';
import { declaredRouter } from './mount-route.js';
import { sendData, sendNoContent } from './parse-input.js';
import { currentSiteId, currentUser } from './require-capabilities.js';
import { API_BASE, declareRoute, NO_CONTENT } from './route.js';

export const MEMBERS_ROUTES = {
  list: declareRoute({
    method: 'get',
    path: '/api/v1/members',
    summary: "The site's members with their effective capabilities",
    tag: 'Members',
    auth: 'session',
    site: true,
    access: { capabilities: ['users:write'] },
    query: ListQuery,
    success: { status: 200, description: 'Members', schema: MemberListResponse },
  }),
  add: declareRoute({
    method: 'post',
    path: '/api/v1/members',
    summary: 'Add someone by email in one step (an account is created when none has that email; its password is answered this once)',
    tag: 'Members',
    auth: 'session',
    site: true,
    access: { capabilities: ['users:write'], checks: ['grants-held-only'] },
    body: AddMemberRequest,
    success: { status: 201, description: 'The membership, and a one-time password for a new account', schema: AddMemberResponse },
    errors: [409],
  }),
  put: declareRoute({
    method: 'put',
    path: '/api/v1/members/:userId',
    summary: 'Create or replace a membership',
    tag: 'Members',
    auth: 'session',
    site: true,
    access: { capabilities: ['users:write'], checks: ['grants-held-only'] },
    body: PutMemberRequest,
    success: { status: 200, description: 'The membership', schema: MemberResponse },
    errors: [404],
  }),
  remove: declareRoute({
    method: 'delete',
    path: '/api/v1/members/:userId',
    summary: 'Remove a member (their sockets for the site disconnect)',
    tag: 'Members',
    auth: 'session',
    site: true,
    access: { capabilities: ['users:write'] },
    success: NO_CONTENT,
    errors: [404],
  }),
};

function memberActor(request: Request): MemberActor {
  return { user: currentUser(request), capabilities: request.context.capabilities ?? [] };
}

/** Mounted after tenancy. */
export function createMembersRouter({ members }: { members: MembersService }): Router {
  return declaredRouter({ base: API_BASE })
    .route(MEMBERS_ROUTES.list, async ({ query: page }, request, response) => {
      const { records, total } = await members.list(currentSiteId(request), page);
      sendData(response, 200, records, { total, ...page });
    })
    .route(MEMBERS_ROUTES.add, async ({ body }, request, response) => {
      const added = await members.add(currentSiteId(request), body, memberActor(request));
      // The password is answered once and never stored: a replay of this request answers the member alone.
      if (added.password !== undefined) response.locals[IDEMPOTENT_REPLAY_BODY] = JSON.stringify({ data: { member: added.member } });
      sendData(response, 201, added);
    })
    .route(MEMBERS_ROUTES.put, async ({ params, body }, request, response) => {
      sendData(response, 200, await members.put(currentSiteId(request), params.userId, body, memberActor(request)));
    })
    .route(MEMBERS_ROUTES.remove, async ({ params }, request, response) => {
      await members.remove(currentSiteId(request), params.userId, memberActor(request));
      sendNoContent(response);
    }).router;
}

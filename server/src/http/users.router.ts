// POST /users (superadmin), PATCH /users/:id (superadmin or oneself), DELETE /users/:id (superadmin),
// GET /users?email= (superadmin, or users:write in the X-Site-Id site).
import { CreateUserRequest, UpdateUserRequest, UserListResponse, UserResponse, UsersQuery, ValidationError } from '@lumibase/shared';
import type { RequestHandler, Router } from 'express';
import type { UsersService } from '../services/users.service.js';
import { declaredRouter } from './mount-route.js';
import { sendData, sendNoContent } from './parse-input.js';
import { currentUser } from './require-capabilities.js';
import { API_BASE, declareRoute, NO_CONTENT } from './route.js';

export const USERS_ROUTES = {
  create: declareRoute({
    method: 'post',
    path: '/api/v1/users',
    summary: 'Create a user',
    tag: 'Users',
    auth: 'session',
    access: { superadmin: 'only' },
    body: CreateUserRequest,
    success: { status: 201, description: 'Created', schema: UserResponse },
    errors: [400, 403, 409],
  }),
  list: declareRoute({
    method: 'get',
    path: '/api/v1/users',
    summary: 'List users, or look one up by email',
    tag: 'Users',
    auth: 'session',
    access: { superadmin: 'or-capabilities', capabilities: ['users:write'], checks: ['email-unless-superadmin'] },
    query: UsersQuery,
    success: { status: 200, description: 'Users', schema: UserListResponse },
    errors: [400, 403],
  }),
  update: declareRoute({
    method: 'patch',
    path: '/api/v1/users/:id',
    summary: "Rename a user or change their password (a password change ends the user's other sessions)",
    tag: 'Users',
    auth: 'session',
    access: { checks: ['self-or-superadmin'] },
    body: UpdateUserRequest,
    success: { status: 200, description: 'The user', schema: UserResponse },
    errors: [400, 403],
  }),
  remove: declareRoute({
    method: 'delete',
    path: '/api/v1/users/:id',
    summary: 'Remove a user: their sessions end, sockets disconnect, memberships go',
    tag: 'Users',
    auth: 'session',
    access: { superadmin: 'only', checks: ['not-self'] },
    success: NO_CONTENT,
    errors: [400, 403],
  }),
};

export interface UsersRouterOptions {
  users: UsersService;
  /** The tenancy middleware: a site admin looks users up in the name of one of their sites. */
  tenancy: RequestHandler;
}

export function createUsersRouter({ users, tenancy }: UsersRouterOptions): Router {
  return (
    declaredRouter({ base: API_BASE, tenancy })
      .route(USERS_ROUTES.create, async ({ body }, _request, response) => {
        sendData(response, 201, await users.create(body));
      })
      // A superadmin needs no site; anyone else looks users up in the name of a site where they hold users:write.
      .route(USERS_ROUTES.list, async ({ query }, request, response) => {
        // Outside a superadmin, the list is a lookup by address, never a directory of every account.
        if (!request.context.user?.isSuperadmin && query.email === undefined) {
          throw new ValidationError({ message: 'Look users up by email', details: [{ path: 'email', message: 'Required' }] });
        }
        const { records, total } = await users.list(query);
        sendData(response, 200, records, { total, limit: query.limit, offset: query.offset });
      })
      // The service decides who may change whom: a superadmin anyone, anyone else only themself.
      .route(USERS_ROUTES.update, async ({ params, body }, request, response) => {
        const actor = { user: currentUser(request), sessionId: request.context.sessionId };
        sendData(response, 200, await users.update(params.id, body, actor));
      })
      .route(USERS_ROUTES.remove, async ({ params }, request, response) => {
        await users.remove(params.id, { user: currentUser(request), sessionId: request.context.sessionId });
        sendNoContent(response);
      }).router
  );
}

// POST /users (superadmin), PATCH /users/:id (superadmin or oneself), DELETE /users/:id (superadmin),
// GET /users?email= (superadmin, or users:write in the X-Site-Id site).
import { CreateUserRequest, UpdateUserRequest, UsersQuery, ValidationError } from '@lumibase/shared';
import { type NextFunction, type Request, type RequestHandler, type Response, Router } from 'express';
import type { UsersService } from '../services/users.service.js';
import { parseInput, routeParam, sendData, sendNoContent } from './parse-input.js';
import { currentUser, requireCapabilities, requireSuperadmin } from './require-capabilities.js';

export interface UsersRouterOptions {
  users: UsersService;
  /** The tenancy middleware: a site admin looks users up in the name of one of their sites. */
  tenancy: RequestHandler;
}

export function createUsersRouter({ users, tenancy }: UsersRouterOptions): Router {
  const router = Router();

  router.post('/users', requireSuperadmin(), async (request, response) => {
    const input = parseInput(CreateUserRequest, request.body, 'body');
    sendData(response, 201, await users.create(input));
  });

  // A superadmin needs no site; anyone else looks users up in the name of a site where they hold users:write.
  const siteUserAdmin = Router().use(tenancy, requireCapabilities('users:write'));
  const superadminOrSiteUserAdmin = (request: Request, response: Response, next: NextFunction) => {
    if (request.context.user?.isSuperadmin) next();
    else siteUserAdmin(request, response, next);
  };

  router.get('/users', superadminOrSiteUserAdmin, async (request, response) => {
    const query = parseInput(UsersQuery, request.query, 'query');
    // Outside a superadmin, the list is a lookup by address, never a directory of every account.
    if (!request.context.user?.isSuperadmin && query.email === undefined) {
      throw new ValidationError({ message: 'Look users up by email', details: [{ path: 'email', message: 'Required' }] });
    }
    const { records, total } = await users.list(query);
    sendData(response, 200, records, { total, limit: query.limit, offset: query.offset });
  });

  // The service decides who may change whom: a superadmin anyone, anyone else only themself.
  router.patch('/users/:id', async (request, response) => {
    const input = parseInput(UpdateUserRequest, request.body, 'body');
    const actor = { user: currentUser(request), sessionId: request.context.sessionId };
    sendData(response, 200, await users.update(routeParam(request, 'id'), input, actor));
  });

  router.delete('/users/:id', requireSuperadmin(), async (request, response) => {
    await users.remove(routeParam(request, 'id'), { user: currentUser(request), sessionId: request.context.sessionId });
    sendNoContent(response);
  });
  return router;
}

// POST /auth/login (public), POST /auth/logout, GET /auth/me.
import { LoginRequest, LoginResponse, MeResponse } from '@lumibase/shared';
import type { RequestHandler, Router } from 'express';
import type { AuthService } from '../services/auth.service.js';
import { declaredRouter } from './mount-route.js';
import { sendData, sendNoContent } from './parse-input.js';
import { currentUser } from './require-capabilities.js';
import { API_BASE, declareRoute, NO_CONTENT } from './route.js';
import type { SessionCookie } from './session-cookie.js';

export const AUTH_ROUTES = {
  login: declareRoute({
    method: 'post',
    path: '/api/v1/auth/login',
    summary: 'Sign in; also sets the Studio session cookie',
    tag: 'Auth',
    auth: 'public',
    body: LoginRequest,
    success: { status: 200, description: 'Signed in', schema: LoginResponse },
    errors: [400, 401, 413, 429, 503],
  }),
  logout: declareRoute({
    method: 'post',
    path: '/api/v1/auth/logout',
    summary: 'End this session (its token stops working, its sockets disconnect)',
    tag: 'Auth',
    auth: 'session',
    success: NO_CONTENT,
  }),
  me: declareRoute({
    method: 'get',
    path: '/api/v1/auth/me',
    summary: 'The caller and their sites',
    tag: 'Auth',
    auth: 'session',
    success: { status: 200, description: 'The caller', schema: MeResponse },
  }),
};

/** The one route that needs no credentials; mounted before `authenticate`. */
export function createLoginRouter({
  auth,
  jsonBody,
  cookie,
}: {
  auth: AuthService;
  jsonBody: RequestHandler;
  cookie: SessionCookie;
}): Router {
  return declaredRouter({ base: API_BASE }).route(
    AUTH_ROUTES.login,
    async ({ body: { email, password } }, request, response) => {
      const result = await auth.login({ email, password, address: request.ip ?? request.socket.remoteAddress ?? 'unknown' });
      cookie.set(request, response, result.token, new Date(result.expiresAt));
      sendData(response, 200, result);
    },
    [jsonBody],
  ).router;
}

export function createSessionRouter({
  auth,
  copilot,
  cookie,
}: {
  auth: AuthService;
  copilot?: { provider: string };
  cookie: SessionCookie;
}): Router {
  return declaredRouter({ base: API_BASE })
    .route(AUTH_ROUTES.logout, async (_input, request, response) => {
      const user = currentUser(request);
      await auth.logout({ sessionId: request.context.sessionId!, userId: user.id });
      cookie.clear(request, response);
      sendNoContent(response);
    })
    .route(AUTH_ROUTES.me, async (_input, request, response) => {
      sendData(response, 200, { ...(await auth.me(currentUser(request))), ...(copilot ? { copilot } : {}) });
    }).router;
}

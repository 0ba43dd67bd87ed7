// POST /auth/login (public), POST /auth/logout, GET /auth/me.
import { LoginRequest } from '@lumibase/shared';
import { type RequestHandler, Router } from 'express';
import type { AuthService } from '../services/auth.service.js';
import { parseInput, sendData, sendNoContent } from './parse-input.js';
import { currentUser } from './require-capabilities.js';
import type { SessionCookie } from './session-cookie.js';

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
  const router = Router();
  router.post('/auth/login', jsonBody, async (request, response) => {
    const { email, password } = parseInput(LoginRequest, request.body, 'body');
    const result = await auth.login({ email, password, address: request.ip ?? request.socket.remoteAddress ?? 'unknown' });
    cookie.set(request, response, result.token, new Date(result.expiresAt));
    sendData(response, 200, result);
  });
  return router;
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
  const router = Router();
  router.post('/auth/logout', async (request, response) => {
    const user = currentUser(request);
    await auth.logout({ sessionId: request.context.sessionId!, userId: user.id });
    cookie.clear(request, response);
    sendNoContent(response);
  });
  router.get('/auth/me', async (request, response) => {
    sendData(response, 200, { ...(await auth.me(currentUser(request))), ...(copilot ? { copilot } : {}) });
  });
  return router;
}

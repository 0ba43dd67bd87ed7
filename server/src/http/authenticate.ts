// Who is asking: a Bearer token or the Studio's session cookie. No credentials → 401, before anything else.
import { ForbiddenError, UnauthenticatedError } from '@lumibase/shared';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AuthService } from '../services/auth.service.js';
import { type SessionCookie, sessionCookie } from './session-cookie.js';
import { createTrustedOriginCheck } from './trusted-origin.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]+) *$/i;

export interface AuthenticateOptions {
  auth: Pick<AuthService, 'authenticate'>;
  /** An origin accepted for cookie-authenticated writes besides the server's own (STUDIO_ORIGIN). */
  studioOrigin?: string | undefined;
  /** The session cookie's name and reading (by PUBLIC_URL); the bare name when absent. */
  cookie?: SessionCookie;
}

export function authenticate({ auth, studioOrigin, cookie = sessionCookie(undefined) }: AuthenticateOptions): RequestHandler {
  const fromTrustedOrigin = createTrustedOriginCheck(studioOrigin);
  return async (request: Request, _response: Response, next: NextFunction) => {
    const header = request.get('authorization');
    let token: string | undefined;
    let method: 'bearer' | 'cookie';
    if (header !== undefined) {
      token = BEARER.exec(header)?.[1];
      method = 'bearer';
    } else {
      token = cookie.read(request.headers.cookie);
      method = 'cookie';
    }
    if (!token) throw new UnauthenticatedError();
    const { user, sessionId, epoch } = await auth.authenticate(token);
    if (method === 'cookie' && !SAFE_METHODS.has(request.method) && !fromTrustedOrigin(request)) {
      throw new ForbiddenError({ message: 'Cookie-authenticated changes must come from the Studio', reason: 'untrusted-origin' });
    }
    Object.assign(request.context, { user, sessionId, authMethod: method, accessEpoch: epoch });
    next();
  };
}

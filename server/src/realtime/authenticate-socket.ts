// A socket's handshake, checked like a request: the session (token or cookie), then membership of the site.
import { UnauthenticatedError } from '@lumibase/shared';
import { readSessionCookie } from '../http/session-cookie.js';
import type { AuthService } from '../services/auth.service.js';
import type { SiteAccessService } from '../services/site-access.service.js';
import type { AuthenticateSocket } from './socket-server.js';

export function createSocketAuthenticator({ auth, access }: { auth: AuthService; access: SiteAccessService }): AuthenticateSocket {
  return async ({ token, cookieHeader, siteId }) => {
    const credential = token ?? readSessionCookie(cookieHeader);
    if (!credential) throw new UnauthenticatedError();
    const { user, sessionId, expiresAt } = await auth.authenticate(credential);
    await access.resolve(user, siteId);
    return { userId: user.id, sessionId, siteId, sessionExpiresAt: expiresAt };
  };
}

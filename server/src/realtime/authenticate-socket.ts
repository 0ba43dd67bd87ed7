// A socket's handshake, checked like a request: the session (token or cookie, the cookie only from a trusted origin), then membership of the site.
import { ForbiddenError, UnauthenticatedError } from '@lumibase/shared';
import { type SessionCookie, sessionCookie } from '../http/session-cookie.js';
import { createTrustedOriginCheck } from '../http/trusted-origin.js';
import type { AuthService } from '../services/auth.service.js';
import type { SiteAccessService } from '../services/site-access.service.js';
import type { AuthenticateSocket } from './socket-server.js';

export interface SocketAuthenticatorOptions {
  auth: AuthService;
  access: SiteAccessService;
  /** An origin accepted for cookie-authenticated sockets besides the server's own (STUDIO_ORIGIN). */
  studioOrigin?: string | undefined;
  /** The session cookie's name and reading (by PUBLIC_URL); the bare name when absent. */
  cookie?: SessionCookie;
}

export function createSocketAuthenticator({
  auth,
  access,
  studioOrigin,
  cookie = sessionCookie(undefined),
}: SocketAuthenticatorOptions): AuthenticateSocket {
  const fromTrustedOrigin = createTrustedOriginCheck(studioOrigin);
  return async ({ token, request, siteId }) => {
    const credential = token ?? cookie.read(request.headers.cookie);
    if (!credential) throw new UnauthenticatedError();
    const { user, sessionId, expiresAt, epoch } = await auth.authenticate(credential);
    // A page on another origin would otherwise open a socket on the Studio's cookie and read the site's events.
    if (!token && !fromTrustedOrigin(request)) {
      throw new ForbiddenError({ message: 'Cookie-authenticated sockets must come from the Studio', reason: 'untrusted-origin' });
    }
    // From here on the site is the membership's canonical id, never the handshake's spelling of it:
    // rooms, streams and revocation (membership-removed carries the canonical id) must all agree.
    const { site } = await access.resolve(user, siteId, epoch);
    return { userId: user.id, sessionId, siteId: site.id, sessionExpiresAt: expiresAt };
  };
}

// A socket's handshake, checked like a request: the session (token or cookie), then membership of the site.
import { UnauthenticatedError } from '@lumibase/shared';
import { SESSION_COOKIE } from '../http/session-cookie.js';
import type { AuthService } from '../services/auth.service.js';
import type { SiteAccessService } from '../services/site-access.service.js';
import type { AuthenticateSocket } from './socket-server.js';

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) {
      try {
        return decodeURIComponent(value.join('='));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function createSocketAuthenticator({ auth, access }: { auth: AuthService; access: SiteAccessService }): AuthenticateSocket {
  return async ({ token, cookieHeader, siteId }) => {
    const credential = token ?? readCookie(cookieHeader, SESSION_COOKIE);
    if (!credential) throw new UnauthenticatedError();
    const { user, sessionId, expiresAt } = await auth.authenticate(credential);
    await access.resolve(user, siteId);
    return { userId: user.id, sessionId, siteId, sessionExpiresAt: expiresAt };
  };
}

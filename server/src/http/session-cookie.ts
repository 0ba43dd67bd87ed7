// The Studio's session cookie: httpOnly (no script reads it) and SameSite=Lax (no cross-site POST carries it). Behind
// an https PUBLIC_URL it is Secure and named `__Host-…` (host-only, path /), whatever the hop to the server spoke:
// a TLS proxy off loopback makes requests look like plain http. Plain-http loopback development keeps the bare name.
import { parse } from 'cookie';
import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'lumibase_session';
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

export interface SessionCookie {
  readonly name: string;
  set(request: Request, response: Response, token: string, expiresAt: Date): void;
  clear(request: Request, response: Response): void;
  /** The session token in a Cookie header (a request's, or a socket handshake's). */
  read(cookieHeader: string | undefined): string | undefined;
}

/** The cookie for a deployment reached at `publicUrl` (PUBLIC_URL). */
export function sessionCookie(publicUrl: string | undefined): SessionCookie {
  const https = publicUrl !== undefined && new URL(publicUrl).protocol === 'https:';
  const name = https ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  const options = (request: Request) => ({ httpOnly: true, sameSite: 'lax' as const, secure: https || request.secure, path: '/' });
  return {
    name,
    set(request, response, token, expiresAt) {
      response.cookie(name, token, { ...options(request), expires: expiresAt });
    },
    clear(request, response) {
      response.clearCookie(name, options(request));
    },
    read(cookieHeader) {
      return readSessionCookie(cookieHeader, name);
    },
  };
}

/** The session token in a Cookie header under `name` (only that name: a bare cookie tossed by a sibling host is not read behind https). */
export function readSessionCookie(cookieHeader: string | undefined, name: string = SESSION_COOKIE): string | undefined {
  const value = cookieHeader ? parse(cookieHeader)[name] : undefined;
  return value ? value : undefined;
}

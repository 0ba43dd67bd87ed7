// The Studio's session cookie: httpOnly (no script reads it) and SameSite=Lax (no cross-site POST carries it).
import { parse } from 'cookie';
import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'lumibase_session';

export function setSessionCookie(request: Request, response: Response, token: string, expiresAt: Date): void {
  response.cookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: request.secure, path: '/', expires: expiresAt });
}

export function clearSessionCookie(request: Request, response: Response): void {
  response.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: request.secure, path: '/' });
}

/** The session token in a Cookie header (a request's, or a socket handshake's). */
export function readSessionCookie(cookieHeader: string | undefined): string | undefined {
  const value = cookieHeader ? parse(cookieHeader)[SESSION_COOKIE] : undefined;
  return value ? value : undefined;
}

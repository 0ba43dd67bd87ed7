// The Studio's session cookie: httpOnly (no script reads it) and SameSite=Lax (no cross-site POST carries it).
import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'lumibase_session';

export function setSessionCookie(request: Request, response: Response, token: string, expiresAt: Date): void {
  response.cookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: request.secure, path: '/', expires: expiresAt });
}

export function clearSessionCookie(request: Request, response: Response): void {
  response.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: request.secure, path: '/' });
}

export function readSessionCookie(request: Request): string | undefined {
  const value = (request.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

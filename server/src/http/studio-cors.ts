// CORS for the Studio hosted on another origin (STUDIO_ORIGIN): that origin alone, with credentials; nothing otherwise.
import cors from 'cors';
import type { RequestHandler } from 'express';

/**
 * Without STUDIO_ORIGIN no CORS header is ever sent, so browsers keep every other origin out. With
 * it, only a request whose Origin is exactly the Studio's gets `Access-Control-Allow-Origin` and
 * `Access-Control-Allow-Credentials` (the session cookie); others get no CORS header at all.
 */
export function studioCors(studioOrigin: string | undefined): RequestHandler {
  const allowed = studioOrigin ? new URL(studioOrigin).origin : undefined;
  return cors({
    origin: (origin, callback) => callback(null, allowed !== undefined && origin === allowed),
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Site-Id', 'X-Request-Id', 'Idempotency-Key'],
    exposedHeaders: ['X-Request-Id', 'Retry-After'],
    maxAge: 600,
  });
}

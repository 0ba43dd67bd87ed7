// What travels with one request: its id, its logger, and (once resolved) who is asking and for which site.
import { randomUUID } from 'node:crypto';
import type { GrantedCapability } from '@lumibase/shared';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../logger.js';

export interface AuthenticatedUser {
  id: string;
  email: string;
  name: string;
  isSuperadmin: boolean;
}

export interface RequestContext {
  requestId: string;
  log: Logger;
  /** Set by the authentication middleware. */
  user?: AuthenticatedUser;
  /** Id of the session the request was authenticated with. */
  sessionId?: string;
  /** How the request was authenticated: cookie-authenticated writes need a same-origin check. */
  authMethod?: 'bearer' | 'cookie';
  /** Set by the tenancy middleware for site-scoped routes. */
  site?: { id: string; name: string };
  capabilities?: GrantedCapability[];
}

declare global {
  namespace Express {
    interface Request {
      context: RequestContext;
    }
  }
}

const INCOMING_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Gives every request an id (an incoming X-Request-Id if well-formed) and a logger that carries it. */
export function requestContext(logger: Logger) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const incoming = request.get('x-request-id');
    const requestId = incoming && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    const log = logger.child({ requestId });
    request.context = { requestId, log };
    response.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    response.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info({ method: request.method, path: request.path, status: response.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}

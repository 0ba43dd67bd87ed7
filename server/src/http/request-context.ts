// What travels with one request: its id, its logger, and (once resolved) who is asking and for which site.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GrantedCapability } from '@lumibase/shared';
import type { NextFunction, Request, Response } from 'express';
import { pinoHttp } from 'pino-http';
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
  /** The access epoch read when the request was authenticated: its site is resolved under the same one. */
  accessEpoch?: string;
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

/**
 * Gives every request an id (an incoming X-Request-Id if well-formed), echoed in X-Request-Id, and a
 * logger that carries it; logs one `request` line per response.
 */
export function requestContext(logger: Logger) {
  const line = (request: IncomingMessage, response: ServerResponse, ms: number) => ({
    method: request.method,
    path: (request as Request).path,
    status: response.statusCode,
    ms,
  });
  const http = pinoHttp({
    logger,
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    genReqId: (request, response) => {
      const incoming = request.headers['x-request-id'];
      const requestId = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
      response.setHeader('X-Request-Id', requestId);
      return requestId;
    },
    customLogLevel: () => 'info',
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request',
    customSuccessObject: (request, response, value: { responseTime: number }) => line(request, response, value.responseTime),
    customErrorObject: (request, response, _error, value: { responseTime: number }) => line(request, response, value.responseTime),
  });
  return (request: Request, response: Response, next: NextFunction): void => {
    http(request, response, () => {
      request.context = { requestId: String(request.id), log: request.log };
      next();
    });
  };
}

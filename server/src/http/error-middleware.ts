// The one place that turns errors into docs/API.md's envelope: domain errors by class, the client's mistakes as
// 400/413, a MongoDB or Redis outage as 503 with Retry-After (any error raised while one of them does not answer
// its health probe), the rest as 500 without details.
import {
  DomainError,
  type ErrorCode,
  type ErrorEnvelope,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  UnavailableError,
  ValidationError,
} from '@lumibase/shared';
import type { NextFunction, Request, Response } from 'express';
import type { DependencyCheck } from '../infrastructure/dependency-check.js';
import { anyDependencyDown, isDependencyOutage } from '../infrastructure/dependency-outage.js';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};

/** Seconds a client should wait before retrying a 503: about one server-selection timeout. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * MongoDB or Redis refusing a command while it is down (Redis fails fast: its offline queue is off;
 * MongoDB after serverSelectionTimeoutMS) is an outage, not a bug: 503, never a 500.
 */
function fromOutage(error: unknown): DomainError | undefined {
  return isDependencyOutage(error) ? new UnavailableError({ message: 'A backing service is unavailable; try again shortly' }) : undefined;
}

/**
 * body-parser and the router report the client's mistakes as http-errors with a 4xx `status`
 * (malformed JSON, a gzip body that does not inflate, an aborted upload, a param that does not
 * percent-decode). They are bad input, so they must answer 400/413, not fall through to a 500.
 */
function fromClientError(error: unknown): DomainError | undefined {
  if (error instanceof URIError) return new ValidationError({ message: 'Malformed URL encoding' });
  const { status, statusCode, type } = (typeof error === 'object' && error !== null ? error : {}) as {
    status?: unknown;
    statusCode?: unknown;
    type?: unknown;
  };
  const code = status ?? statusCode;
  if (typeof code !== 'number' || code < 400 || code > 499) return undefined;
  if (code === 413) return new PayloadTooLargeError({ message: 'Request body too large' });
  if (type === 'entity.parse.failed') return new ValidationError({ message: 'Malformed JSON body' });
  if (code === 415) return new ValidationError({ message: 'Unsupported body encoding or charset' });
  return new ValidationError({ message: 'Malformed request body' });
}

export function toEnvelope(error: DomainError, requestId: string): ErrorEnvelope {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
      requestId,
    },
  };
}

function send(error: DomainError, request: Request, response: Response): void {
  const requestId = request.context?.requestId ?? 'unknown';
  if (error instanceof RateLimitedError && error.retryAfterSeconds !== undefined) {
    response.setHeader('Retry-After', String(error.retryAfterSeconds));
  }
  if (error instanceof UnavailableError) response.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  response.status(STATUS_BY_CODE[error.code]).json(toEnvelope(error, requestId));
}

function classOf(error: unknown): string {
  return (typeof error === 'object' && error !== null && error.constructor?.name) || typeof error;
}

/**
 * The app's error envelope. An error no rule knows asks the backing services' health probes (bounded, never
 * throwing): raised while MongoDB or Redis does not answer, it is the outage's 503; otherwise a 500. Either way its
 * class is logged, so the class rules can learn it. An error after the answer began is left to Express (which
 * closes the connection): there is no status left to choose.
 */
export function createErrorMiddleware({ dependencies }: { dependencies: readonly DependencyCheck[] }) {
  return async function errorMiddleware(error: unknown, request: Request, response: Response, next: NextFunction): Promise<void> {
    if (response.headersSent) {
      request.context?.log.warn({ err: error, errorClass: classOf(error) }, 'an error after the answer began');
      next(error);
      return;
    }
    const known = error instanceof DomainError ? error : (fromClientError(error) ?? fromOutage(error));
    if (known) {
      send(known, request, response);
      return;
    }
    const outage = await anyDependencyDown(dependencies);
    // The client may have gone, or something else answered, while the probe ran.
    if (response.headersSent || response.destroyed) return;
    if (outage) {
      request.context?.log.warn({ err: error, errorClass: classOf(error) }, 'an unlisted error class while a backing service is down: 503');
      send(new UnavailableError({ message: 'A backing service is unavailable; try again shortly' }), request, response);
      return;
    }
    request.context?.log.error({ err: error, errorClass: classOf(error) }, 'unhandled error');
    const requestId = request.context?.requestId ?? 'unknown';
    response.status(500).json({ error: { code: 'INTERNAL', message: 'Internal error', requestId } });
  };
}

/** The envelope without outage probes (apps that reach no backing service, tests of one router). */
export const errorMiddleware = createErrorMiddleware({ dependencies: [] });

export function notFoundHandler(_request: Request, _response: Response, next: NextFunction): void {
  next(new NotFoundError({ message: 'No such route' }));
}

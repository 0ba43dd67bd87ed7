// Errors Express and body-parser raise for a bad request, turned into domain errors before the error middleware.
import { DomainError, PayloadTooLargeError, ValidationError } from '@lumibase/shared';
import type { NextFunction, Request, Response } from 'express';

/**
 * body-parser and the router report the client's mistakes as http-errors with a 4xx `status`
 * (a gzip body that does not inflate, an aborted upload, a param that does not percent-decode).
 * They are bad input, so they must answer 400/413, not fall through to the 500 of unknown errors.
 */
export function clientErrors(error: unknown, _request: Request, _response: Response, next: NextFunction): void {
  next(toClientError(error));
}

function toClientError(error: unknown): unknown {
  if (error instanceof DomainError) return error;
  if (error instanceof URIError) return new ValidationError({ message: 'Malformed URL encoding' });
  const { status, statusCode, type } = (typeof error === 'object' && error !== null ? error : {}) as {
    status?: unknown;
    statusCode?: unknown;
    type?: unknown;
  };
  const code = status ?? statusCode;
  if (typeof code !== 'number' || code < 400 || code > 499) return error;
  if (code === 413) return new PayloadTooLargeError({ message: 'Request body too large' });
  if (type === 'entity.parse.failed') return new ValidationError({ message: 'Malformed JSON body' });
  if (code === 415) return new ValidationError({ message: 'Unsupported body encoding or charset' });
  return new ValidationError({ message: 'Malformed request body' });
}

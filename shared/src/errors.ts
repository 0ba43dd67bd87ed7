// Domain errors: each class is one meaning, carries what the caller needs, and knows nothing of HTTP.

export const ErrorCode = {
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  RATE_LIMITED: 'RATE_LIMITED',
  INTERNAL: 'INTERNAL',
  UNAVAILABLE: 'UNAVAILABLE',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface ErrorDetail {
  path: string;
  message: string;
}

export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
  readonly details?: ErrorDetail[];

  constructor(message: string, details?: ErrorDetail[]) {
    super(message);
    this.name = new.target.name;
    if (details && details.length > 0) this.details = details;
  }
}

export class ValidationError extends DomainError {
  readonly code = ErrorCode.VALIDATION_FAILED;
  constructor({ message = 'Request validation failed', details }: { message?: string; details?: ErrorDetail[] } = {}) {
    super(message, details);
  }
}

export class UnauthenticatedError extends DomainError {
  readonly code = ErrorCode.UNAUTHENTICATED;
  constructor({ message = 'Authentication required' }: { message?: string } = {}) {
    super(message);
  }
}

/** Also used for records outside the caller's site: the message never says whether they exist elsewhere. */
export class ForbiddenError extends DomainError {
  readonly code = ErrorCode.FORBIDDEN;
  readonly reason?: string;
  constructor({ message = 'Forbidden', reason }: { message?: string; reason?: string } = {}) {
    super(message);
    if (reason) this.reason = reason;
  }
}

export class NotFoundError extends DomainError {
  readonly code = ErrorCode.NOT_FOUND;
  constructor({ message = 'Not found', resource }: { message?: string; resource?: string } = {}) {
    super(resource ? `${resource} not found` : message);
  }
}

export class ConflictError extends DomainError {
  readonly code = ErrorCode.CONFLICT;
  constructor({ message = 'Conflict' }: { message?: string } = {}) {
    super(message);
  }
}

export class PayloadTooLargeError extends DomainError {
  readonly code = ErrorCode.PAYLOAD_TOO_LARGE;
  constructor({ message = 'Payload too large' }: { message?: string } = {}) {
    super(message);
  }
}

export class RateLimitedError extends DomainError {
  readonly code = ErrorCode.RATE_LIMITED;
  readonly retryAfterSeconds?: number;
  constructor({ message = 'Too many requests', retryAfterSeconds }: { message?: string; retryAfterSeconds?: number } = {}) {
    super(message);
    if (retryAfterSeconds !== undefined) this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class UnavailableError extends DomainError {
  readonly code = ErrorCode.UNAVAILABLE;
  constructor({ message = 'Service unavailable' }: { message?: string } = {}) {
    super(message);
  }
}

/**
 * Turns zod issues into the contract's `details` (dotted paths). An unrecognized-keys issue becomes
 * one detail per key, at the key's own path, so a client can point at the field it should not send.
 */
export function detailsFromZodIssues(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string; keys?: readonly string[] }>,
  { unknownKey = 'Unknown field' }: { unknownKey?: string } = {},
): ErrorDetail[] {
  const dotted = (path: readonly PropertyKey[]) => path.map(String).join('.');
  return issues.flatMap((issue) =>
    issue.keys && issue.keys.length > 0
      ? issue.keys.map((key) => ({ path: dotted([...issue.path, key]), message: unknownKey }))
      : [{ path: dotted(issue.path), message: issue.message }],
  );
}

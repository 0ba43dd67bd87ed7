// The one error the API client throws: the contract's error envelope, a network failure, or a reply that breaks the contract.
import { type ErrorCode, type ErrorDetail, ErrorEnvelope } from '@lumibase/shared';

/** The contract's codes plus two the client itself raises. */
export type ApiErrorCode = ErrorCode | 'NETWORK' | 'BAD_RESPONSE';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  503: 'UNAVAILABLE',
};

export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly details: ErrorDetail[];
  readonly requestId: string | undefined;

  constructor({
    status,
    code,
    message,
    details = [],
    requestId,
  }: { status: number; code: ApiErrorCode; message: string; details?: ErrorDetail[]; requestId?: string | undefined }) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.requestId = requestId;
  }
}

/** Reads an error response: the envelope when the body is one, else a code derived from the status. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => undefined);
  const parsed = ErrorEnvelope.safeParse(body);
  if (parsed.success) {
    const { code, message, details, requestId } = parsed.data.error;
    return new ApiError({ status: response.status, code, message, details: details ?? [], requestId });
  }
  const code = CODE_BY_STATUS[response.status] ?? 'INTERNAL';
  return new ApiError({ status: response.status, code, message: `The server answered ${response.status}` });
}

export function networkError(cause: unknown): ApiError {
  const error = new ApiError({ status: 0, code: 'NETWORK', message: 'Could not reach the server' });
  error.cause = cause;
  return error;
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError({ status: 0, code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) });
}

/** A sentence for a person, for errors a form or view does not handle itself. */
export function describeError(error: unknown): string {
  const apiError = toApiError(error);
  switch (apiError.code) {
    case 'NETWORK':
      return "Can't reach the server. Check your connection and try again.";
    case 'UNAUTHENTICATED':
      return 'Your session has ended. Sign in again.';
    case 'FORBIDDEN':
      return "You don't have permission to do that in this site.";
    case 'NOT_FOUND':
      return apiError.message && apiError.status === 404 ? apiError.message : 'Not found.';
    case 'RATE_LIMITED':
      return 'Too many attempts. Wait a few minutes, then try again.';
    case 'UNAVAILABLE':
      return 'The service is unavailable right now. Try again shortly.';
    case 'BAD_RESPONSE':
      return 'The server sent a reply the Studio does not understand.';
    case 'INTERNAL':
      return apiError.requestId ? `Something went wrong on the server (request ${apiError.requestId}).` : 'Something went wrong.';
    default:
      return apiError.message;
  }
}

/** The notice for an automatic retry of a state-changing request (the client sends it again once, with the same key). */
export function describeRetry(notice: { stage: 'retrying' | 'recovered' | 'failed'; reason: 'NETWORK' | 'UNAVAILABLE' }): {
  tone: 'info' | 'success' | 'danger';
  title: string;
  message: string;
} {
  const why = notice.reason === 'NETWORK' ? 'The connection to the server was interrupted' : 'The server was briefly unavailable';
  switch (notice.stage) {
    case 'retrying':
      return { tone: 'info', title: 'Trying again…', message: `${why}; sending your change once more. It will not be applied twice.` };
    case 'recovered':
      return { tone: 'success', title: 'Done on the second try', message: `${why}, so your change was sent again and went through once.` };
    case 'failed':
      return {
        tone: 'danger',
        title: 'Your change could not be confirmed',
        message: `${why} and the retry failed too. Check, then try again.`,
      };
  }
}

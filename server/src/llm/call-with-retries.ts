// At most three tries per model call, backing off with jitter on 429 and 5xx, honouring Retry-After.
import type { Logger } from '../logger.js';
import { ModelCallError } from './model-call-error.js';

export interface RetryOptions {
  /** Tries in all, the first included. The SDKs' own retries are off, so these never stack with theirs. */
  maxTries?: number;
  baseDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the turn answers now instead of holding the request. */
  maxDelayMs?: number;
  sleep?: (milliseconds: number) => Promise<void>;
  random?: () => number;
  logger?: Pick<Logger, 'warn'>;
}

export const DEFAULT_MAX_TRIES = 3;

const defaultSleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/**
 * `toError` turns whatever the SDK threw into a ModelCallError; only those marked retryable are tried
 * again, and none once `signal` is aborted (the caller went away: no further try, no wait).
 */
export async function callWithRetries<T>(
  call: () => Promise<T>,
  toError: (error: unknown) => ModelCallError,
  {
    maxTries = DEFAULT_MAX_TRIES,
    baseDelayMs = 500,
    maxDelayMs = 20_000,
    sleep = defaultSleep,
    random = Math.random,
    logger,
  }: RetryOptions = {},
  signal?: AbortSignal,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let failure: ModelCallError;
    try {
      return await call();
    } catch (error) {
      failure = error instanceof ModelCallError ? error : toError(error);
    }
    if (!failure.retryable || attempt >= maxTries || signal?.aborted) throw failure;
    // Full jitter on an exponential step, unless the provider said how long to wait.
    const delay = failure.retryAfterMs ?? Math.round(random() * baseDelayMs * 2 ** (attempt - 1));
    if (delay > maxDelayMs) throw failure;
    logger?.warn(
      { provider: failure.provider, kind: failure.kind, status: failure.status, attempt, delayMs: delay },
      `model call failed (${failure.message}); retrying`,
    );
    await sleep(delay);
    if (signal?.aborted) throw failure;
  }
}

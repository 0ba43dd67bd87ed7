// Sends JSON requests to /api/v1 with the session cookie, parses replies with the shared schemas, throws ApiError.
// Every state-changing call is one user action with a fresh Idempotency-Key, retried once with the same key on a
// network error or a 503 (docs/API.md "Safe retries"): the server runs it at most once either way.
import type { z } from 'zod';
import { ApiError, errorFromResponse, networkError } from './api-error.js';

export type QueryValue = string | number | boolean | undefined;

export interface RequestOptions<Schema extends z.ZodType | undefined> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Parses the success body; omit for 204 routes. */
  schema?: Schema;
  /** Sent as X-Site-Id for site-scoped routes. */
  siteId?: string;
  /** False for routes whose 401 means "wrong credentials", not "session ended" (sign-in). */
  reportUnauthenticated?: boolean;
  signal?: AbortSignal;
}

/** What the client tells the person about an automatic retry (the Studio shows it as a toast). */
export interface RetryNotice {
  /** `retrying`: the first attempt failed and is being sent again; then `recovered` or `failed`. */
  stage: 'retrying' | 'recovered' | 'failed';
  method: string;
  path: string;
  /** Why the first attempt failed. */
  reason: 'NETWORK' | 'UNAVAILABLE';
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);
/** Wait before the retry: long enough for a blip to pass, short enough that the person is still there. */
export const RETRY_DELAY_MS = 1000;

export interface HttpClientOptions {
  fetch?: typeof globalThis.fetch;
  baseUrl?: string;
  /** Called when a request answers 401: the session ended elsewhere (logout, expiry). */
  onUnauthenticated?: (error: ApiError) => void;
  /** Told when a state-changing request is retried, and how the retry ended. */
  onRetry?: (notice: RetryNotice) => void;
  /** A fresh Idempotency-Key per user action (crypto.randomUUID by default). */
  newIdempotencyKey?: () => string;
  /** Waits before the retry (tests pass one that does not). */
  sleep?: (ms: number) => Promise<void>;
}

export class HttpClient {
  readonly #fetch: typeof globalThis.fetch;
  readonly #baseUrl: string;
  readonly #onUnauthenticated: ((error: ApiError) => void) | undefined;
  readonly #onRetry: ((notice: RetryNotice) => void) | undefined;
  readonly #newKey: () => string;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor({
    fetch = (...args) => globalThis.fetch(...args),
    baseUrl = '/api/v1',
    onUnauthenticated,
    onRetry,
    newIdempotencyKey = () => globalThis.crypto.randomUUID(),
    sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  }: HttpClientOptions = {}) {
    this.#fetch = fetch;
    this.#baseUrl = baseUrl;
    this.#onUnauthenticated = onUnauthenticated;
    this.#onRetry = onRetry;
    this.#newKey = newIdempotencyKey;
    this.#sleep = sleep;
  }

  async request<Schema extends z.ZodType | undefined = undefined>(
    path: string,
    options: RequestOptions<Schema> = {},
  ): Promise<Schema extends z.ZodType ? z.infer<Schema> : undefined> {
    const { method = 'GET', query, body, schema, siteId, reportUnauthenticated = true, signal } = options;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (siteId !== undefined) headers['X-Site-Id'] = siteId;
    const changesState = !SAFE_METHODS.has(method);
    // One key for this call and its retry: the server applies the action at most once.
    if (changesState) headers['Idempotency-Key'] = this.#newKey();
    const init: RequestInit = {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(signal ? { signal } : {}),
    };
    const url = this.#url(path, query);

    let outcome = await this.#send(url, init);
    const reason = retryReason(outcome);
    if (changesState && reason) {
      this.#onRetry?.({ stage: 'retrying', method, path, reason });
      await this.#sleep(RETRY_DELAY_MS);
      outcome = await this.#send(url, init);
      this.#onRetry?.({ stage: outcome instanceof Response && outcome.ok ? 'recovered' : 'failed', method, path, reason });
    }
    if (outcome instanceof ApiError) throw outcome;
    const response = outcome;

    if (!response.ok) {
      const error = await errorFromResponse(response);
      if (error.status === 401 && reportUnauthenticated) this.#onUnauthenticated?.(error);
      throw error;
    }
    if (!schema) return undefined as never;
    const json: unknown = await response.json().catch(() => undefined);
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new ApiError({
        status: response.status,
        code: 'BAD_RESPONSE',
        message: `Unexpected reply from ${method} ${path}`,
        details: parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
        requestId: response.headers.get('x-request-id') ?? undefined,
      });
    }
    return parsed.data as never;
  }

  /** The response, or the network failure as an ApiError (an abort is rethrown as is). */
  async #send(url: string, init: RequestInit): Promise<Response | ApiError> {
    try {
      return await this.#fetch(url, init);
    } catch (error) {
      if ((error as Error)?.name === 'AbortError') throw error;
      return networkError(error);
    }
  }

  #url(path: string, query: Record<string, QueryValue> | undefined): string {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) search.set(key, String(value));
    }
    const suffix = search.size > 0 ? `?${search}` : '';
    return `${this.#baseUrl}${path}${suffix}`;
  }
}

/** Why a first attempt is worth repeating with its key: the network failed, or the server said 503. */
function retryReason(outcome: Response | ApiError): RetryNotice['reason'] | undefined {
  if (outcome instanceof ApiError) return 'NETWORK';
  return outcome.status === 503 ? 'UNAVAILABLE' : undefined;
}

/** Encodes one path segment (names and ids are validated server-side; this only keeps the URL well-formed). */
export function segment(value: string): string {
  return encodeURIComponent(value);
}

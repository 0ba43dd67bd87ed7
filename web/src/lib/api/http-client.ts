// Sends JSON requests to /api/v1 with the session cookie, parses replies with the shared schemas, throws ApiError.
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

export interface HttpClientOptions {
  fetch?: typeof globalThis.fetch;
  baseUrl?: string;
  /** Called when a request answers 401: the session ended elsewhere (logout, expiry). */
  onUnauthenticated?: (error: ApiError) => void;
}

export class HttpClient {
  readonly #fetch: typeof globalThis.fetch;
  readonly #baseUrl: string;
  readonly #onUnauthenticated: ((error: ApiError) => void) | undefined;

  constructor({ fetch = (...args) => globalThis.fetch(...args), baseUrl = '/api/v1', onUnauthenticated }: HttpClientOptions = {}) {
    this.#fetch = fetch;
    this.#baseUrl = baseUrl;
    this.#onUnauthenticated = onUnauthenticated;
  }

  async request<Schema extends z.ZodType | undefined = undefined>(
    path: string,
    options: RequestOptions<Schema> = {},
  ): Promise<Schema extends z.ZodType ? z.infer<Schema> : undefined> {
    const { method = 'GET', query, body, schema, siteId, reportUnauthenticated = true, signal } = options;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (siteId !== undefined) headers['X-Site-Id'] = siteId;

    let response: Response;
    try {
      response = await this.#fetch(this.#url(path, query), {
        method,
        headers,
        credentials: 'same-origin',
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if ((error as Error)?.name === 'AbortError') throw error;
      throw networkError(error);
    }

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

  #url(path: string, query: Record<string, QueryValue> | undefined): string {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) search.set(key, String(value));
    }
    const suffix = search.size > 0 ? `?${search}` : '';
    return `${this.#baseUrl}${path}${suffix}`;
  }
}

/** Encodes one path segment (names and ids are validated server-side; this only keeps the URL well-formed). */
export function segment(value: string): string {
  return encodeURIComponent(value);
}

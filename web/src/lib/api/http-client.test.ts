import { describe, expect, it, vi } from 'vitest';
import { ApiError, describeError } from './api-error.js';
import { createApi } from './index.js';
import { HttpClient } from './http-client.js';
import { z } from 'zod';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

function clientAnswering(response: Response | (() => Promise<Response>), onUnauthenticated = vi.fn()) {
  const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => (typeof response === 'function' ? response() : response));
  return { fetch, onUnauthenticated, http: new HttpClient({ fetch: fetch as typeof globalThis.fetch, onUnauthenticated }) };
}

const Answer = z.object({ data: z.object({ id: z.string() }) });

describe('HttpClient', () => {
  it('sends JSON with the session cookie and the site header, and returns the parsed envelope', async () => {
    const { fetch, http } = clientAnswering(json(201, { data: { id: 'a1', extra: true } }));
    const answer = await http.request('/items/posts', {
      method: 'POST',
      body: { data: { title: 'Hi' } },
      siteId: 'site-1',
      schema: Answer,
    });
    expect(answer).toEqual({ data: { id: 'a1' } });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/v1/items/posts');
    expect(init).toMatchObject({ method: 'POST', credentials: 'same-origin', body: '{"data":{"title":"Hi"}}' });
    expect(init?.headers).toMatchObject({ 'Content-Type': 'application/json', 'X-Site-Id': 'site-1' });
  });

  it('builds the query string and leaves out undefined values', async () => {
    const { fetch, http } = clientAnswering(json(200, { data: { id: 'x' } }));
    await http.request('/users', { query: { email: 'a+b@x.io', limit: 25, offset: undefined }, schema: Answer });
    expect(fetch.mock.calls[0]![0]).toBe('/api/v1/users?email=a%2Bb%40x.io&limit=25');
  });

  it('returns undefined for a 204', async () => {
    const { http } = clientAnswering(new Response(null, { status: 204 }));
    await expect(http.request('/collections/posts', { method: 'DELETE' })).resolves.toBeUndefined();
  });

  it('turns the error envelope into an ApiError with code, message, details and request id', async () => {
    const envelope = {
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Item data does not match',
        details: [{ path: 'data.title', message: 'Required' }],
        requestId: 'r-1',
      },
    };
    const { http } = clientAnswering(json(400, envelope));
    const error = await http.request('/items/posts', { method: 'POST', body: {} }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', message: 'Item data does not match', requestId: 'r-1' });
    expect(error.details).toEqual([{ path: 'data.title', message: 'Required' }]);
  });

  it('derives the code from the status when the body is not an envelope (a proxy error page)', async () => {
    const { http } = clientAnswering(new Response('<html>Bad gateway</html>', { status: 503 }));
    const error = await http.request('/collections').catch((caught) => caught);
    expect(error).toMatchObject({ status: 503, code: 'UNAVAILABLE', details: [] });
    const unknown = await clientAnswering(new Response('', { status: 502 }))
      .http.request('/x')
      .catch((caught) => caught);
    expect(unknown.code).toBe('INTERNAL');
  });

  it('reports a 401 as an ended session, except where 401 means wrong credentials', async () => {
    const body = { error: { code: 'UNAUTHENTICATED', message: 'Authentication required', requestId: 'r' } };
    const ended = clientAnswering(json(401, body));
    await expect(ended.http.request('/collections')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(ended.onUnauthenticated).toHaveBeenCalledOnce();

    const login = clientAnswering(json(401, body));
    await expect(login.http.request('/auth/login', { method: 'POST', body: {}, reportUnauthenticated: false })).rejects.toMatchObject({
      status: 401,
    });
    expect(login.onUnauthenticated).not.toHaveBeenCalled();
  });

  it('turns a failed fetch into a NETWORK error', async () => {
    const { http } = clientAnswering(() => Promise.reject(new TypeError('Failed to fetch')));
    const error = await http.request('/collections').catch((caught) => caught);
    expect(error).toMatchObject({ status: 0, code: 'NETWORK' });
    expect(describeError(error)).toMatch(/can't reach the server/i);
  });

  it('refuses a success body that breaks the contract, naming the bad paths', async () => {
    const { http } = clientAnswering(json(200, { data: { id: 42 } }));
    const error = await http.request('/x', { schema: Answer }).catch((caught) => caught);
    expect(error).toMatchObject({ code: 'BAD_RESPONSE', details: [{ path: 'data.id' }] });
  });
});

describe('createApi', () => {
  it('login returns the user and sites, and its 401 is not an ended session', async () => {
    const onUnauthenticated = vi.fn();
    const session = {
      token: 't',
      expiresAt: '2030-01-01T00:00:00.000Z',
      user: { id: 'u1', email: 'ann@x.io', name: 'Ann', isSuperadmin: false },
      sites: [{ id: 's1', name: 'Demo', role: 'admin', capabilities: ['schema:read'] }],
    };
    const fetch = vi.fn().mockResolvedValueOnce(json(200, { data: session }));
    const api = createApi({ fetch, onUnauthenticated });
    const info = await api.auth.login({ email: 'ann@x.io', password: 'pw' });
    expect(info).toEqual({ user: session.user, sites: session.sites });
    expect(info).not.toHaveProperty('token');

    fetch.mockResolvedValueOnce(json(401, { error: { code: 'UNAUTHENTICATED', message: 'Invalid credentials', requestId: 'r' } }));
    await expect(api.auth.login({ email: 'ann@x.io', password: 'bad' })).rejects.toMatchObject({ status: 401 });
    expect(onUnauthenticated).not.toHaveBeenCalled();
  });

  it('site-scoped calls carry that site id and encode path segments', async () => {
    const fetch = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
    const api = createApi({ fetch });
    await api.site('site-9').items.remove('posts', 'a/b');
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/v1/items/posts/a%2Fb');
    expect(init.headers['X-Site-Id']).toBe('site-9');
  });

  it('findByEmail answers the first user, or undefined when none matches', async () => {
    const user = { id: 'u2', email: 'bob@x.io', name: 'Bob', isSuperadmin: false };
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(json(200, { data: [user], meta: { total: 1, limit: 25, offset: 0 } }))
      .mockResolvedValueOnce(json(200, { data: [], meta: { total: 0, limit: 25, offset: 0 } }));
    const users = createApi({ fetch }).site('s1').users;
    await expect(users.findByEmail('bob@x.io')).resolves.toEqual(user);
    await expect(users.findByEmail('nobody@x.io')).resolves.toBeUndefined();
    expect(fetch.mock.calls[0]![0]).toBe('/api/v1/users?email=bob%40x.io');
  });
});

describe('HttpClient: safe retries', () => {
  function retryingClient(answers: Array<Response | Error>) {
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => {
      const next = answers.shift();
      if (next instanceof Error) throw next;
      return next!;
    });
    const notices: unknown[] = [];
    let keys = 0;
    const http = new HttpClient({
      fetch: fetch as typeof globalThis.fetch,
      onRetry: (notice) => notices.push(notice),
      newIdempotencyKey: () => `key-${++keys}`,
      sleep: async () => {},
    });
    const keyOf = (call: number) => (fetch.mock.calls[call]![1]!.headers as Record<string, string>)['Idempotency-Key'];
    return { fetch, http, notices, keyOf };
  }
  const unavailable = () => json(503, { error: { code: 'UNAVAILABLE', message: 'down', requestId: 'r' } }, { 'retry-after': '5' });

  it('sends a fresh Idempotency-Key with every state-changing call, none with a read', async () => {
    const { http, keyOf } = retryingClient([
      json(201, { data: { id: 'a' } }),
      json(201, { data: { id: 'b' } }),
      json(200, { data: { id: 'c' } }),
    ]);
    await http.request('/items/posts', { method: 'POST', body: { data: {} }, schema: Answer });
    await http.request('/items/posts', { method: 'POST', body: { data: {} }, schema: Answer });
    await http.request('/items/posts/c', { schema: Answer });
    expect([keyOf(0), keyOf(1), keyOf(2)]).toEqual(['key-1', 'key-2', undefined]);
  });

  it('retries once with the same key after a 503, and says so', async () => {
    const { http, fetch, notices, keyOf } = retryingClient([unavailable(), json(201, { data: { id: 'a' } })]);
    await expect(http.request('/items/posts', { method: 'POST', body: { data: {} }, schema: Answer })).resolves.toEqual({
      data: { id: 'a' },
    });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(keyOf(1)).toBe(keyOf(0));
    expect(notices).toEqual([
      { stage: 'retrying', method: 'POST', path: '/items/posts', reason: 'UNAVAILABLE' },
      { stage: 'recovered', method: 'POST', path: '/items/posts', reason: 'UNAVAILABLE' },
    ]);
  });

  it('retries once after a network error; a second failure is thrown and reported', async () => {
    const { http, fetch, notices, keyOf } = retryingClient([new TypeError('Failed to fetch'), new TypeError('Failed to fetch')]);
    const error = await http.request('/ai/chat', { method: 'POST', body: { message: 'hi' } }).catch((caught) => caught);
    expect(error).toMatchObject({ code: 'NETWORK' });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(keyOf(1)).toBe(keyOf(0));
    expect(notices.at(-1)).toMatchObject({ stage: 'failed', reason: 'NETWORK' });
  });

  it('does not retry reads, nor answers other than 503', async () => {
    const read = retryingClient([unavailable()]);
    await expect(read.http.request('/items/posts', { schema: Answer })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(read.fetch).toHaveBeenCalledTimes(1);
    const conflict = retryingClient([json(409, { error: { code: 'CONFLICT', message: 'taken', requestId: 'r' } })]);
    await expect(conflict.http.request('/collections', { method: 'POST', body: {} })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(conflict.fetch).toHaveBeenCalledTimes(1);
    expect(conflict.notices).toEqual([]);
  });
});

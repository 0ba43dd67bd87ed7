import { describe, expect, it } from 'vitest';
import { createAiSkillsApi, describeAiError } from './ai-skills-api.js';
import { ApiError } from './api-error.js';
import { HttpClient } from './http-client.js';

/** A fetch that records the request and answers `body` with `status`. */
function fakeServer(status: number, body: unknown) {
  const requests: Array<{ url: string; method: string; headers: Record<string, string>; body: unknown }> = [];
  const fetch = (async (url: string, init: RequestInit) => {
    requests.push({
      url,
      method: init.method ?? 'GET',
      headers: init.headers as Record<string, string>,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    });
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { api: createAiSkillsApi(new HttpClient({ fetch, newIdempotencyKey: () => 'k1' }), 's1'), requests };
}

const call = { name: 'aiSuggestField', arguments: {} };

describe('the Studio’s AI helpers client', () => {
  it('searches with q and limit in the site', async () => {
    const { api, requests } = fakeServer(200, { data: [], meta: { model: 'local-hash-v1', pending: 4 } });
    expect(await api.search({ q: 'roses & tulips', limit: 8 })).toEqual({ data: [], meta: { model: 'local-hash-v1', pending: 4 } });
    expect(requests[0]?.url).toBe('/api/v1/ai/search?q=roses+%26+tulips&limit=8');
    expect(requests[0]?.headers['X-Site-Id']).toBe('s1');
  });

  it('runs aiSuggestField through POST /ai/skills/aiSuggestField and reads its data', async () => {
    const data = { suggestion: { name: 'slug', type: 'string' }, rationale: 'Common.', similar: [] };
    const { api, requests } = fakeServer(200, { data: { status: 'executed', skill: call, data } });
    expect(await api.suggestField('posts', 'a URL name')).toEqual({
      ...data,
      suggestion: { name: 'slug', type: 'string', required: false },
    });
    expect(requests[0]).toMatchObject({
      url: '/api/v1/ai/skills/aiSuggestField',
      method: 'POST',
      body: { collection: 'posts', description: 'a URL name' },
    });
  });

  it('sends itemId only when editing an item', async () => {
    const data = { field: 'title', value: 'Hi', rationale: 'r', sources: [] };
    const { api, requests } = fakeServer(200, { data: { status: 'executed', skill: call, data } });
    await api.assist({ collection: 'posts', field: 'title', instruction: 'shorter', itemId: undefined });
    await api.assist({ collection: 'posts', field: 'title', instruction: 'shorter', itemId: 'i1' });
    expect(requests.map((request) => request.body)).toEqual([
      { collection: 'posts', field: 'title', instruction: 'shorter' },
      { collection: 'posts', field: 'title', instruction: 'shorter', itemId: 'i1' },
    ]);
  });

  it('explains an answer it cannot use: an approval the policy asks for, or data of another shape', async () => {
    const pending = fakeServer(202, { data: { status: 'pending_approval', skill: call, approvalId: 'a1', message: 'm' } });
    await expect(pending.api.suggestField('posts', 'x')).rejects.toThrow(/needs an admin’s approval/);
    const unavailable = { available: false, skill: 'aiSuggestField', message: 'aiSuggestField is not available yet.' };
    const old = fakeServer(200, { data: { status: 'executed', skill: call, data: unavailable } });
    const error = await old.api.suggestField('posts', 'x').catch((caught: unknown) => caught);
    expect(describeAiError(error)).toBe('aiSuggestField is not available yet.');
  });

  it('says refusals in the server’s words, other failures as usual', () => {
    expect(describeAiError(new ApiError({ status: 403, code: 'FORBIDDEN', message: 'aiSuggestField needs schema:read' }))).toBe(
      'aiSuggestField needs schema:read',
    );
    expect(describeAiError(new ApiError({ status: 0, code: 'NETWORK', message: 'x' }))).toMatch(/Can't reach the server/);
  });
});

import type { ItemView, SearchHit, SearchResponse } from '@lumibase/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/api-error.js';
import { itemHref, scorePercent, SiteSearch } from './site-search.svelte.js';

const item = (id: string): ItemView => ({
  id,
  collection: 'posts',
  data: { title: id },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const hit = (id: string, score = 0.5): SearchHit => ({ collection: 'posts', id, score, snippet: `About ${id}`, item: item(id) });
const reply = (hits: SearchHit[], pending = 0): SearchResponse => ({ data: hits, meta: { model: 'local', pending } });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('SiteSearch', () => {
  it('waits for typing to pause, then asks once for the latest query', async () => {
    const search = vi.fn(async ({ q }: { q: string }) => reply([hit(q)], 2));
    const state = new SiteSearch({ search, debounceMs: 200, limit: 5 });
    state.type('g');
    state.type('ga');
    state.type('garden ');
    expect(state.status).toBe('loading');
    await vi.advanceTimersByTimeAsync(199);
    expect(search).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(search).toHaveBeenCalledTimes(1);
    expect(search.mock.calls[0]?.[0]).toMatchObject({ q: 'garden', limit: 5 });
    expect(state.status).toBe('ready');
    expect(state.hits.map((found) => found.id)).toEqual(['garden']);
    expect(state.pending).toBe(2);
  });

  it('drops an answer that arrives after a newer query, and aborts the older request', async () => {
    const answers: Array<(value: SearchResponse) => void> = [];
    const signals: AbortSignal[] = [];
    const search = vi.fn(
      ({ signal }: { signal: AbortSignal }) =>
        new Promise<SearchResponse>((resolve) => {
          signals.push(signal);
          answers.push(resolve);
        }),
    );
    const state = new SiteSearch({ search, debounceMs: 10 });
    state.type('old');
    await vi.advanceTimersByTimeAsync(10);
    state.type('new');
    expect(signals[0]?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(10);
    answers[1]?.(reply([hit('new')]));
    answers[0]?.(reply([hit('old')]));
    await vi.runAllTimersAsync();
    expect(state.hits.map((found) => found.id)).toEqual(['new']);
  });

  it('clears on a blank query and shows errors until the next search', async () => {
    const search = vi.fn().mockRejectedValueOnce(new ApiError({ status: 503, code: 'UNAVAILABLE', message: 'down' }));
    search.mockResolvedValue(reply([]));
    const state = new SiteSearch({ search, debounceMs: 10 });
    state.type('x');
    await vi.advanceTimersByTimeAsync(10);
    expect(state.status).toBe('error');
    expect(state.error?.code).toBe('UNAVAILABLE');
    await state.run();
    expect(state.status).toBe('ready');
    expect(state.hits).toEqual([]);
    state.type('   ');
    expect(state.status).toBe('idle');
    await vi.runAllTimersAsync();
    expect(search).toHaveBeenCalledTimes(2);
  });
});

describe('search helpers', () => {
  it('shows a score as a whole percentage, never below 0 or above 100', () => {
    expect([0.8734, 0.005, -0.4, 1].map(scorePercent)).toEqual(['87%', '1%', '0%', '100%']);
  });

  it('opens a hit on its collection page with the item param', () => {
    expect(itemHref('posts', 'a b/c')).toBe('/content/posts?item=a%20b%2Fc');
  });
});

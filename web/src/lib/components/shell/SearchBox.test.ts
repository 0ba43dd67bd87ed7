import type { ItemView, SearchHit, SearchResponse } from '@lumibase/shared';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error.js';
import { SiteSearch } from '../../state/site-search.svelte.js';
import SearchBox from './SearchBox.svelte';

afterEach(() => cleanup());

const item = (id: string): ItemView => ({
  id,
  collection: 'posts',
  data: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const hit = (id: string, collection: string, score: number): SearchHit => ({
  collection,
  id,
  score,
  snippet: `Snippet of ${id}`,
  item: item(id),
});

function renderBox(answer: () => Promise<SearchResponse>) {
  const search = new SiteSearch({ search: answer, debounceMs: 0 });
  const onopen = vi.fn();
  render(SearchBox, { props: { search, onopen } });
  return { onopen, box: screen.getByRole('combobox', { name: 'Search content' }) as HTMLInputElement };
}

describe('SearchBox', () => {
  it('lists hits with collection and snippet (closeness in words, not percentages); arrows choose, Enter opens', async () => {
    const { onopen, box } = renderBox(async () => ({
      data: [hit('a1', 'posts', 0.91), hit('b2', 'recipes', 0.256), hit('c3', 'posts', 0.05)],
      meta: { model: 'local', pending: 3 },
    }));
    await fireEvent.input(box, { target: { value: 'garden' } });
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      'posts Snippet of a1',
      'recipes loosely related Snippet of b2',
    ]);
    expect(screen.getByRole('status').textContent?.trim()).toBe('1 match, 1 loosely related');
    expect(screen.getByText('3 items still being indexed')).toBeTruthy();
    expect(box.getAttribute('aria-expanded')).toBe('true');

    await fireEvent.keyDown(box, { key: 'ArrowDown' });
    await fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options[1]?.id);
    expect(options[1]?.getAttribute('aria-selected')).toBe('true');
    await fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]?.id);
    await fireEvent.keyDown(box, { key: 'ArrowUp' });
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect(onopen).toHaveBeenCalledWith(expect.objectContaining({ collection: 'recipes', id: 'b2' }));
    expect(box.value).toBe('');
  });

  it('opens a hit on click, says "No matches", and Escape closes then clears', async () => {
    let hits = [hit('a1', 'posts', 0.5)];
    const { onopen, box } = renderBox(async () => ({ data: hits, meta: { model: 'local', pending: 0 } }));
    await fireEvent.input(box, { target: { value: 'one' } });
    await fireEvent.click(await screen.findByRole('option'));
    expect(onopen).toHaveBeenCalledTimes(1);

    hits = [];
    await fireEvent.input(box, { target: { value: 'nothing like it' } });
    expect(await screen.findByText('No matches')).toBeTruthy();
    expect(screen.queryByText(/still being indexed/)).toBeNull();
    await fireEvent.keyDown(box, { key: 'Escape' });
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(box.value).toBe('nothing like it');
    await fireEvent.keyDown(box, { key: 'Escape' });
    expect(box.value).toBe('');
  });

  it('shows an error with Retry, which searches again', async () => {
    const answer = vi
      .fn<() => Promise<SearchResponse>>()
      .mockRejectedValueOnce(new ApiError({ status: 400, code: 'VALIDATION_FAILED', message: 'q must be at most 500 characters' }))
      .mockResolvedValue({ data: [hit('a1', 'posts', 0.7)], meta: { model: 'local', pending: 0 } });
    const { box } = renderBox(answer);
    await fireEvent.input(box, { target: { value: 'x' } });
    expect(await screen.findByText('q must be at most 500 characters')).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
  });
});

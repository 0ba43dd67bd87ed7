// The navigation's semantic search: what was typed, debounced requests (stale answers dropped, older requests aborted),
// and the loading / results / empty / error states the box shows.
import { SEARCH_QUERY_MAX, type SearchHit, type SearchResponse } from '@lumibase/shared';
import type { ApiError } from '../api/index.js';
import { AsyncAction } from '../forms/async-action.svelte.js';

export type SearchStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface SiteSearchOptions {
  search: (request: { q: string; limit: number; signal: AbortSignal }) => Promise<SearchResponse>;
  debounceMs?: number;
  limit?: number;
}

export { SEARCH_QUERY_MAX };
const DEFAULT_DEBOUNCE_MS = 250;
const DEFAULT_LIMIT = 8;

export class SiteSearch {
  query = $state('');

  /** The request for the latest query: only its answer counts, an older one in flight is aborted. */
  readonly #request: AsyncAction<string, SearchResponse>;
  readonly #debounceMs: number;
  /** Typing has not paused yet: the request is about to start. */
  #waiting = $state(false);
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor({ search, debounceMs = DEFAULT_DEBOUNCE_MS, limit = DEFAULT_LIMIT }: SiteSearchOptions) {
    this.#request = new AsyncAction((q, signal) => search({ q, limit, signal }));
    this.#debounceMs = debounceMs;
  }

  get status(): SearchStatus {
    if (this.#waiting || this.#request.busy) return 'loading';
    if (this.#request.error) return 'error';
    return this.#request.value ? 'ready' : 'idle';
  }

  get hits(): SearchHit[] {
    return this.#request.value?.data ?? [];
  }

  /** Items of the site not embedded yet (they cannot be found yet). */
  get pending(): number {
    return this.#request.value?.meta.pending ?? 0;
  }

  get error(): ApiError | undefined {
    return this.#request.error;
  }

  /** What the box holds now; the request follows once typing pauses. A blank query clears the results. */
  type(query: string): void {
    this.query = query;
    this.#stopWaiting();
    if (query.trim() === '') {
      this.#request.reset();
      return;
    }
    this.#request.cancel();
    this.#waiting = true;
    this.#timer = setTimeout(() => void this.run(), this.#debounceMs);
  }

  /** Searches for the current query at once (Enter, or Retry after an error). */
  async run(): Promise<void> {
    this.#stopWaiting();
    const q = this.query.trim().slice(0, SEARCH_QUERY_MAX);
    if (q === '') return;
    await this.#request.run(q);
  }

  /** Empties the box and forgets the results (Escape, leaving the site). */
  clear(): void {
    this.type('');
  }

  #stopWaiting(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#waiting = false;
  }
}

/** A score in [-1, 1] as the Studio shows it: a whole percentage, never below 0. */
export function scorePercent(score: number): string {
  return `${Math.round(Math.max(0, Math.min(1, score)) * 100)}%`;
}

/** Where a hit opens: its collection's page with the item's editor open. */
export function itemHref(collection: string, id: string): string {
  return `/content/${encodeURIComponent(collection)}?item=${encodeURIComponent(id)}`;
}

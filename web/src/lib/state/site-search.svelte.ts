// The navigation's semantic search: what was typed, debounced requests (stale answers dropped, older requests aborted),
// and the loading / results / empty / error states the box shows.
import { SEARCH_QUERY_MAX, type SearchHit, type SearchResponse } from '@lumibase/shared';
import { type ApiError, toApiError } from '../api/index.js';

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
  status = $state<SearchStatus>('idle');
  hits = $state.raw<SearchHit[]>([]);
  /** Items of the site not embedded yet (they cannot be found yet). */
  pending = $state(0);
  error = $state.raw<ApiError | undefined>(undefined);

  readonly #search: SiteSearchOptions['search'];
  readonly #debounceMs: number;
  readonly #limit: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #controller: AbortController | undefined;
  #generation = 0;

  constructor({ search, debounceMs = DEFAULT_DEBOUNCE_MS, limit = DEFAULT_LIMIT }: SiteSearchOptions) {
    this.#search = search;
    this.#debounceMs = debounceMs;
    this.#limit = limit;
  }

  /** What the box holds now; the request follows once typing pauses. A blank query clears the results. */
  type(query: string): void {
    this.query = query;
    this.#cancel();
    if (query.trim() === '') {
      this.status = 'idle';
      this.hits = [];
      this.error = undefined;
      return;
    }
    this.status = 'loading';
    this.#timer = setTimeout(() => void this.run(), this.#debounceMs);
  }

  /** Searches for the current query at once (Enter, or Retry after an error). */
  async run(): Promise<void> {
    this.#cancel();
    const q = this.query.trim().slice(0, SEARCH_QUERY_MAX);
    if (q === '') return;
    const generation = ++this.#generation;
    const controller = new AbortController();
    this.#controller = controller;
    this.status = 'loading';
    try {
      const reply = await this.#search({ q, limit: this.#limit, signal: controller.signal });
      if (generation !== this.#generation) return;
      this.hits = reply.data;
      this.pending = reply.meta.pending;
      this.error = undefined;
      this.status = 'ready';
    } catch (caught) {
      if (generation !== this.#generation) return;
      this.error = toApiError(caught);
      this.status = 'error';
    }
  }

  /** Empties the box and forgets the results (Escape, leaving the site). */
  clear(): void {
    this.type('');
  }

  #cancel(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#generation++;
    this.#controller?.abort();
    this.#controller = undefined;
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

// One open collection: its schema and one page of its items, kept current by content-changed events.
import type { CollectionView, ItemView } from '@lumibase/shared';
import type { Page, SiteApi } from '../api/index.js';
import type { ContentChangedEvent } from '../realtime/events.js';
import { Resource } from './resource.svelte.js';

export const PAGE_SIZE = 25;
const HIGHLIGHT_MS = 4000;

export class CollectionState {
  readonly name: string;
  readonly schema: Resource<CollectionView>;
  readonly items: Resource<Page<ItemView>>;
  offset = $state(0);
  readonly limit: number;
  /** The collection was deleted while open (by someone else, or the Copilot). */
  deleted = $state(false);
  /** Items that just arrived through a live event, highlighted for a moment. */
  arrivedIds = $state<string[]>([]);

  readonly #api: SiteApi;

  constructor(api: SiteApi, name: string, { limit = PAGE_SIZE }: { limit?: number } = {}) {
    this.#api = api;
    this.name = name;
    this.limit = limit;
    this.schema = new Resource(() => api.collections.get(name));
    this.items = new Resource(() => api.items.list(name, { limit: this.limit, offset: this.offset }));
  }

  get api(): SiteApi {
    return this.#api;
  }

  load(): void {
    void this.schema.load();
    void this.items.load();
  }

  goTo(offset: number): void {
    this.offset = Math.max(0, offset);
    void this.items.load({ silent: true });
  }

  /** After a write from this tab: refresh without a spinner. */
  async refreshItems(): Promise<void> {
    await this.items.load({ silent: true });
    const page = this.items.value;
    // Deleting the last item of a page moves back one page.
    if (page && page.data.length === 0 && this.offset > 0 && page.meta.total > 0) this.goTo(this.offset - this.limit);
  }

  handle(event: ContentChangedEvent): void {
    if (event.collection !== this.name) return;
    if (event.kind === 'collection') {
      if (event.action === 'deleted') this.deleted = true;
      else void this.schema.load({ silent: true });
      return;
    }
    if (event.kind === 'field') {
      // A removed field also loses its values in every item.
      void this.schema.load({ silent: true });
      void this.refreshItems();
      return;
    }
    if (event.action === 'created' && event.id) this.#highlight(event.id);
    void this.refreshItems();
  }

  resync(): void {
    void this.schema.load({ silent: true });
    void this.refreshItems();
  }

  #highlight(id: string): void {
    this.arrivedIds = [...this.arrivedIds, id];
    setTimeout(() => {
      this.arrivedIds = this.arrivedIds.filter((arrived) => arrived !== id);
    }, HIGHLIGHT_MS);
  }
}

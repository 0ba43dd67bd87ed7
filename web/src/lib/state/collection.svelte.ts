// One open collection: its schema and one page of its items, kept current by content-changed events, and the writes
// the collection page makes (items, fields, the collection itself), each announced and followed by the reads it stales.
import type { CollectionView, Field, FieldChanges, ItemView } from '@lumibase/shared';
import type { ItemData, Page, SiteApi } from '../api/index.js';
import type { ContentChangedEvent } from '../realtime/events.js';
import { applyItemQuery, DEFAULT_QUERY, type ItemQuery, isLocalQuery, LOCAL_QUERY_MAX } from './item-query.js';
import { Resource } from './resource.svelte.js';
import { savedToast } from '../format/saved-words.js';
import type { ToastTone } from './toasts.svelte.js';

const HIGHLIGHT_MS = 4000;
const READ_BATCH = 100;

export interface CollectionStateOptions {
  query?: ItemQuery;
  /** The shown page ran empty (its last item deleted): go to this page (the URL's owner updates the query). */
  onpage?: (page: number) => void;
  /** Announces a write's success (a toast). */
  notify?: (toast: { tone: ToastTone; title: string }) => void;
  /** The site's collection list is stale (a field count changed, the collection is gone). */
  onCollectionsChanged?: () => void;
}

export class CollectionState {
  readonly name: string;
  readonly schema: Resource<CollectionView>;
  readonly items: Resource<Page<ItemView>>;
  /** Page, size, sort and filter: set from the URL by the page. */
  query = $state.raw<ItemQuery>(DEFAULT_QUERY);
  /** The collection was deleted while open (by someone else, or the Copilot). */
  deleted = $state(false);
  /** Items that just arrived through a live event, highlighted for a moment. */
  arrivedIds = $state<string[]>([]);

  readonly #api: SiteApi;
  readonly #options: CollectionStateOptions;

  constructor(api: SiteApi, name: string, options: CollectionStateOptions = {}) {
    this.#api = api;
    this.#options = options;
    this.name = name;
    if (options.query) this.query = options.query;
    this.schema = new Resource(() => api.collections.get(name));
    this.items = new Resource(() => this.#readPage());
  }

  get offset(): number {
    return (this.query.page - 1) * this.query.size;
  }

  get limit(): number {
    return this.query.size;
  }

  get api(): SiteApi {
    return this.#api;
  }

  load(): void {
    void this.schema.load();
    void this.items.load();
  }

  /** Shows another page, size, sort or filter (the page calls this when its URL changes). */
  setQuery(query: ItemQuery): void {
    const same = JSON.stringify(query) === JSON.stringify(this.query);
    this.query = query;
    if (!same && this.items.status !== 'idle') void this.items.load({ silent: true });
  }

  /** After a write from this tab: refresh without a spinner. */
  async refreshItems(): Promise<void> {
    await this.items.load({ silent: true });
    const page = this.items.value;
    // Deleting the last item of a page moves back one page.
    if (page && page.data.length === 0 && this.query.page > 1 && page.meta.total > 0) {
      const previous = Math.max(1, Math.ceil(page.meta.total / this.query.size));
      if (this.#options.onpage) this.#options.onpage(previous);
      else this.setQuery({ ...this.query, page: previous });
    }
  }

  /** One page from the API; or, sorted or filtered, the collection's items (up to LOCAL_QUERY_MAX) cut here. */
  async #readPage(): Promise<Page<ItemView>> {
    const query = this.query;
    if (!isLocalQuery(query)) return this.#api.items.list(this.name, { limit: query.size, offset: this.offset });
    const all: ItemView[] = [];
    let total = Number.POSITIVE_INFINITY;
    while (all.length < Math.min(total, LOCAL_QUERY_MAX)) {
      const batch = await this.#api.items.list(this.name, { limit: READ_BATCH, offset: all.length });
      all.push(...batch.data);
      total = batch.meta.total;
      if (batch.data.length === 0) break;
    }
    const fields = this.schema.value?.fields ?? [];
    const { data, total: matching } = applyItemQuery(all, fields, query);
    return { data, meta: { total: matching, limit: query.size, offset: this.offset } };
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

  async createItem(data: ItemData): Promise<void> {
    const saved = await this.#api.items.create(this.name, data);
    this.#options.notify?.(savedToast('Item created', data, saved.data));
    await this.refreshItems();
  }

  async updateItem(id: string, data: ItemData): Promise<void> {
    const saved = await this.#api.items.update(this.name, id, data);
    this.#options.notify?.(savedToast('Changes saved', data, saved.data));
    await this.refreshItems();
  }

  async deleteItem(id: string): Promise<void> {
    await this.#api.items.remove(this.name, id);
    this.#notify('Item moved to the Trash');
    await this.refreshItems();
  }

  async addField(field: Field): Promise<void> {
    await this.#api.collections.addField(this.name, field);
    this.#notify(`Field ${field.name} added`);
    await this.schema.load({ silent: true });
    this.#options.onCollectionsChanged?.();
  }

  async updateField(fieldName: string, changes: FieldChanges): Promise<void> {
    await this.#api.collections.updateField(this.name, fieldName, changes);
    this.#notify(`Field ${fieldName} saved`);
    await this.schema.load({ silent: true });
  }

  /** A removed field also loses its values in every item. */
  async removeField(fieldName: string): Promise<void> {
    await this.#api.collections.removeField(this.name, fieldName);
    this.#notify(`Field ${fieldName} removed`);
    await this.schema.load({ silent: true });
    void this.refreshItems();
    this.#options.onCollectionsChanged?.();
  }

  async deleteCollection(): Promise<void> {
    await this.#api.collections.remove(this.name);
    this.#notify(`Collection ${this.name} deleted`);
    this.#options.onCollectionsChanged?.();
  }

  resync(): void {
    void this.schema.load({ silent: true });
    void this.refreshItems();
  }

  #notify(title: string): void {
    this.#options.notify?.({ tone: 'success', title });
  }

  #highlight(id: string): void {
    this.arrivedIds = [...this.arrivedIds, id];
    setTimeout(() => {
      this.arrivedIds = this.arrivedIds.filter((arrived) => arrived !== id);
    }, HIGHLIGHT_MS);
  }
}

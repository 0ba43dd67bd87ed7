// The current site's collections, kept current by content-changed events.
import type { CollectionView } from '@lumibase/shared';
import type { SiteApi } from '../api/index.js';
import type { ContentChangedEvent } from '../realtime/events.js';
import { Resource } from './resource.svelte.js';

export class ContentState {
  readonly api: SiteApi;
  readonly collections: Resource<CollectionView[]>;

  constructor(api: SiteApi) {
    this.api = api;
    this.collections = new Resource(() => api.collections.list());
  }

  get siteId(): string {
    return this.api.siteId;
  }

  /** Loads once; later calls refresh quietly. */
  ensureLoaded(): void {
    if (this.collections.status === 'idle' || this.collections.status === 'error') void this.collections.load();
  }

  handle(event: ContentChangedEvent): void {
    if (event.kind === 'item' || this.collections.status === 'idle') return;
    const current = this.collections.value;
    if (event.kind === 'collection' && event.action === 'deleted' && current) {
      // Drop it at once; the refetch below confirms.
      this.collections.set(current.filter((collection) => collection.name !== event.collection));
    }
    void this.collections.load({ silent: true });
  }

  resync(): void {
    if (this.collections.status !== 'idle') void this.collections.load({ silent: true });
  }
}

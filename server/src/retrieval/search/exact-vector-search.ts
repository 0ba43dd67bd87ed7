// Exact cosine search: a scan of the site's cached vectors with a bounded top-k heap.
import type { SiteVectorCache } from './site-vector-cache.js';
import { dot, TopK } from './top-k.js';
import type { VectorHit, VectorQuery, VectorSearch } from './vector-search.js';

export class ExactVectorSearch implements VectorSearch {
  constructor(private readonly cache: SiteVectorCache) {}

  async search({ siteId, vector, model, kind, collection, limit, generation }: VectorQuery): Promise<VectorHit[]> {
    const top = new TopK<{ collection: string; itemId: string }>(limit);
    for (const stored of await this.cache.vectors(siteId, model, generation)) {
      if (stored.kind !== kind || (collection !== undefined && stored.collection !== collection)) continue;
      top.offer(dot(vector, stored.vector), stored);
    }
    return top.sorted().map(({ score, value }) => ({ collection: value.collection, itemId: value.itemId, score }));
  }
}

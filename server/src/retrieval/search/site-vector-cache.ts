// Each site's vectors of the current model, held in memory and reloaded when the site's generation counter
// (bumped in MongoDB by every vector write, from any process) moved: one small read per query otherwise.
import type { EmbeddingStore, StoredVector } from '../../store/ai/embedding.store.js';

interface Entry {
  generation: number;
  model: string;
  vectors: Promise<StoredVector[]>;
}

/** Sites kept at once; the least recently searched goes first. */
const DEFAULT_MAX_SITES = 64;

export class SiteVectorCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly embeddings: (siteId: string) => EmbeddingStore,
    private readonly maxSites = DEFAULT_MAX_SITES,
  ) {}

  /** `generation`: the site's, when the caller read it already on this request (before asking), saving the read. */
  async vectors(siteId: string, model: string, generation?: number): Promise<StoredVector[]> {
    const store = this.embeddings(siteId);
    // Read the generation first: vectors loaded after it are at least that new.
    generation ??= await store.generation();
    const cached = this.entries.get(siteId);
    if (cached && cached.generation === generation && cached.model === model) {
      this.entries.delete(siteId);
      this.entries.set(siteId, cached);
      return cached.vectors;
    }
    const vectors = store.load(model);
    const entry = { generation, model, vectors };
    this.entries.delete(siteId);
    this.entries.set(siteId, entry);
    vectors.catch(() => {
      if (this.entries.get(siteId) === entry) this.entries.delete(siteId);
    });
    while (this.entries.size > this.maxSites) this.entries.delete(this.entries.keys().next().value as string);
    return vectors;
  }
}

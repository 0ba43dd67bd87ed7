// Vector search behind one interface: exact cosine in the process (default) or MongoDB's $vectorSearch.
// Every query names its site; an implementation never looks outside it.
import type { EmbeddingKind } from '../../store/ai/embedding.model.js';

export interface VectorQuery {
  siteId: string;
  /** Unit length, from the same model as the stored vectors. */
  vector: Float32Array;
  model: string;
  kind: EmbeddingKind;
  collection?: string;
  limit: number;
  /** The site's vector generation if read on this request before the query (the exact search's cache then needs no read). */
  generation?: number;
}

export interface VectorHit {
  collection: string;
  itemId: string;
  /** Cosine similarity in [-1, 1]. */
  score: number;
}

export interface VectorSearch {
  /** The nearest vectors of the site, best first, at most `limit`. */
  search(query: VectorQuery): Promise<VectorHit[]>;
}

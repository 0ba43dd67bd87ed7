// MongoDB's `$vectorSearch` (MongoDB 8.2+ or Atlas) over `ai_embeddings`, for VECTOR_SEARCH=mongodb. It needs the
// vector index the README defines (`ai_embeddings_vector`); the embedded server of these machines has no such
// stage, so this path is exercised only against a real deployment. The site filter is part of the stage itself.
import { Binary } from 'mongodb';
import { parseObjectId } from '../../store/object-id.js';
import type { EmbeddingModels } from '../../store/ai/embedding.model.js';
import type { VectorHit, VectorQuery, VectorSearch } from './vector-search.js';

export const VECTOR_INDEX_NAME = 'ai_embeddings_vector';

/** Approximate search looks at this many candidates per result wanted (Atlas suggests 10–20×). */
const CANDIDATES_PER_RESULT = 20;

/** The `$vectorSearch` stage of one query: exported so a test can hold it to its site filter. */
export function vectorSearchPipeline({ siteId, vector, model, kind, collection, limit }: VectorQuery): Record<string, unknown>[] {
  const site = parseObjectId(siteId);
  if (!site) throw new TypeError(`vector search needs a site id, got ${JSON.stringify(siteId)}`);
  return [
    {
      $vectorSearch: {
        index: VECTOR_INDEX_NAME,
        path: 'vector',
        queryVector: Binary.fromFloat32Array(vector),
        numCandidates: Math.min(10_000, Math.max(100, limit * CANDIDATES_PER_RESULT)),
        limit,
        filter: { siteId: site, model, kind, ...(collection !== undefined ? { collection } : {}) },
      },
    },
    { $project: { _id: 0, collection: 1, itemId: 1, score: { $meta: 'vectorSearchScore' } } },
  ];
}

export class MongoVectorSearch implements VectorSearch {
  constructor(private readonly models: Pick<EmbeddingModels, 'embeddings'>) {}

  async search(query: VectorQuery): Promise<VectorHit[]> {
    const rows = await this.models.embeddings.aggregate<VectorHit>(vectorSearchPipeline(query) as never[]);
    // With `similarity: cosine` the stage scores (1 + cosine) / 2; the API speaks cosine.
    return rows.map((row) => ({ collection: row.collection, itemId: row.itemId, score: 2 * row.score - 1 }));
  }
}

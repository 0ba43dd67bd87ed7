// Semantic search over the site's items (docs/API.md, "Search, embeddings and the RAG skills").
import { z } from 'zod';
import { Name } from '../fields.js';
import { ItemView } from './content.js';

export const SEARCH_QUERY_MAX = 500;
export const SEARCH_LIMIT_DEFAULT = 10;
export const SEARCH_LIMIT_MAX = 50;

export const SearchQuery = z.object({
  q: z.string().trim().min(1, 'must not be empty').max(SEARCH_QUERY_MAX, `must be at most ${SEARCH_QUERY_MAX} characters`),
  collection: Name.optional(),
  limit: z.coerce.number().int().min(1).max(SEARCH_LIMIT_MAX).default(SEARCH_LIMIT_DEFAULT),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

export const SearchHit = z.object({
  collection: Name,
  id: z.string(),
  /** Cosine similarity of the query and the item, in [-1, 1]. */
  score: z.number().min(-1).max(1),
  /** The start of the item's text values. */
  snippet: z.string(),
  item: ItemView,
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchMeta = z.object({
  /** The embedding model the site is searched with. */
  model: z.string(),
  /** The site's items not embedded (with this model, at their latest content) yet. */
  pending: z.number().int().min(0),
});

export const SearchResult = z.object({ data: z.array(SearchHit), meta: SearchMeta });
export type SearchResult = z.infer<typeof SearchResult>;
export const SearchResponse = SearchResult;
export type SearchResponse = SearchResult;

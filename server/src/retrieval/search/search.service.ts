// Semantic search of one site: the query embedded with the site's current model, the nearest item vectors, the
// items as they are now. `pending` tells how many items have no up-to-date vector; items left behind for long
// (a model change, a lost job) get the site re-embedded in the background.
import { type SearchHit, type SearchResult, UnavailableError } from '@lumibase/shared';
import type { Embedder } from '../embeddings/embedder.js';
import { EmbeddingProviderError } from '../embeddings/embedder.js';
import type { EmbeddingsEnqueuer } from '../embeddings/embeddings-dispatcher.js';
import { itemSnippet } from '../embeddings/embedding-text.js';
import type { Logger } from '../../logger.js';
import { collectionNotFound } from '../../services/collections.service.js';
import type { EmbeddingKind } from '../../store/ai/embedding.model.js';
import type { EmbeddingSourceStore } from '../../store/ai/embedding-source.store.js';
import type { EmbeddingStore } from '../../store/ai/embedding.store.js';
import type { SiteStores } from '../../store/stores.js';
import type { VectorHit, VectorSearch } from './vector-search.js';

/** An item changed this long ago without an up-to-date vector is taken as left behind, not merely in the queue. */
const LEFT_BEHIND_MS = 60_000;
/**
 * Hits scoring lower are no results: unrelated text, or for the local embedder a stray hash collision (about 0.02).
 * Remote models' related texts score far above it.
 */
export const MIN_SCORE = 0.05;
/** Extra hits asked for, standing in for vectors of items deleted since (their jobs not run yet). */
const SLACK = 10;

export interface SearchServiceOptions {
  stores: { forSite(siteId: string): Pick<SiteStores, 'collections'> };
  sources: (siteId: string) => EmbeddingSourceStore;
  embeddings: (siteId: string) => EmbeddingStore;
  embedder: Embedder;
  vectors: VectorSearch;
  enqueuer: Pick<EmbeddingsEnqueuer, 'enqueue'>;
  /**
   * The site's latest event seq: every item or collection change is followed by its event, so while it and the
   * vectors' version stamp stand still, the pending count cannot have moved.
   */
  contentVersion: (siteId: string) => Promise<number>;
  logger: Logger;
  clock?: () => Date;
}

/** A site's pending items as last counted (when each changed), under what they were counted against. */
interface PendingSnapshot {
  key: string;
  changedAt: number[];
}

/** Sites whose pending count is kept at once; the least recently searched goes first. */
const PENDING_SNAPSHOTS = 64;

export interface SearchRequest {
  query: string;
  collection?: string | undefined;
  limit: number;
  /**
   * The caller's check that this request may make a model call (the per-user limit), already under way: awaited with
   * the first reads and before the query is embedded, so a refused request embeds nothing and the check costs no wait.
   */
  admitted?: Promise<void> | undefined;
}

/** What the pending count and the vector cache are kept against, read at the start of a request. */
interface ContentVersion {
  seq: number;
  generation: number;
  stamp: string;
}

export interface PendingCount {
  /** Items without a vector of the current model for their current version. */
  pending: number;
  /** Of those, the ones changed longer ago than a queued job takes. */
  leftBehind: number;
}

export class SearchService {
  private readonly snapshots = new Map<string, PendingSnapshot>();

  constructor(private readonly options: SearchServiceOptions) {}

  get model(): string {
    return this.options.embedder.model;
  }

  /** NotFoundError for a collection the site lacks; UnavailableError when a remote embedder cannot embed the query. */
  async search(siteId: string, { query, collection, limit, admitted }: SearchRequest): Promise<SearchResult> {
    // Every read that does not depend on another at once: the request's round trips, not the scan, are its cost.
    const [collections, version] = await Promise.all([
      this.options.stores.forSite(siteId).collections.listAll(),
      this.version(siteId),
      admitted,
    ]);
    if (collection !== undefined && !collections.some((candidate) => candidate.name === collection)) throw collectionNotFound(collection);
    const [hits, counted] = await Promise.all([
      this.nearest(siteId, query, { kind: 'item', collection, limit: limit + SLACK, generation: version.generation }),
      this.pending(siteId, { collections, version }),
    ]);
    const items = await this.options.sources(siteId).itemsByIds(hits.filter((hit) => hit.score >= MIN_SCORE).map((hit) => hit.itemId));
    const byId = new Map(collections.map((record) => [record.id, record]));
    const data: SearchHit[] = [];
    for (const hit of hits) {
      if (hit.score < MIN_SCORE) continue;
      const item = items.get(hit.itemId);
      const record = item ? byId.get(item.collectionId) : undefined;
      // Deleted since, or moved out of the collection the vector names: not a result.
      if (!item || !record || record.name !== hit.collection) continue;
      data.push({
        collection: record.name,
        id: item.id,
        score: hit.score,
        snippet: itemSnippet(record, item.data),
        item: { id: item.id, collection: record.name, data: item.data, createdAt: item.createdAt, updatedAt: item.updatedAt },
      });
      if (data.length === limit) break;
    }
    if (counted.leftBehind > 0) await this.reembed(siteId);
    return { data, meta: { model: this.model, pending: counted.pending } };
  }

  /**
   * The nearest vectors of one kind to `text` in the site (items, or collection schemas), best first. `generation`:
   * the site's vector generation when the caller read it on this request already.
   */
  async nearest(
    siteId: string,
    text: string,
    {
      kind,
      collection,
      limit,
      generation,
    }: { kind: EmbeddingKind; collection?: string | undefined; limit: number; generation?: number | undefined },
  ): Promise<VectorHit[]> {
    const vector = await this.embedQuery(text);
    const hits = await this.options.vectors.search({
      siteId,
      vector,
      model: this.model,
      kind,
      limit,
      ...(collection !== undefined ? { collection } : {}),
      ...(generation !== undefined ? { generation } : {}),
    });
    return hits.map((hit) => ({ ...hit, score: Math.max(-1, Math.min(1, hit.score)) }));
  }

  /**
   * How far the site's vectors are behind its items. Counting reads a projection of every item and vector, so the
   * count is kept per site and taken again only when the site's event seq, its vectors' version stamp, its live
   * collections or the model moved (two small reads otherwise). `read`: the collections and version the caller read
   * on this request already (search does), which then need no reads at all when nothing moved.
   */
  async pending(siteId: string, read?: { collections: readonly { id: string }[]; version: ContentVersion }): Promise<PendingCount> {
    // Read before counting: a count taken after them is at least as new as the key it is kept under.
    const [collections, { seq, stamp }] = read
      ? [read.collections, read.version]
      : await Promise.all([this.options.stores.forSite(siteId).collections.listAll(), this.version(siteId)]);
    const key = `${this.model}|${seq}|${stamp}|${collections.map((collection) => collection.id).join(',')}`;
    let snapshot = this.snapshots.get(siteId);
    if (snapshot?.key !== key) snapshot = { key, changedAt: await this.countPending(siteId, collections) };
    this.snapshots.delete(siteId);
    this.snapshots.set(siteId, snapshot);
    while (this.snapshots.size > PENDING_SNAPSHOTS) this.snapshots.delete(this.snapshots.keys().next().value as string);
    const now = (this.options.clock ?? (() => new Date()))().getTime();
    const leftBehind = snapshot.changedAt.filter((changedAt) => now - changedAt > LEFT_BEHIND_MS).length;
    return { pending: snapshot.changedAt.length, leftBehind };
  }

  /** The site's event seq and its vectors' generation and version stamp (three small reads at once). */
  private async version(siteId: string): Promise<ContentVersion> {
    const [seq, { generation, stamp }] = await Promise.all([
      this.options.contentVersion(siteId),
      this.options.embeddings(siteId).versionState(),
    ]);
    return { seq, generation, stamp };
  }

  /** When each item without an up-to-date vector last changed (one projection of each; no item is read in full). */
  private async countPending(siteId: string, collections: readonly { id: string }[]): Promise<number[]> {
    const [items, versions] = await Promise.all([
      this.options.sources(siteId).itemVersions(collections.map((collection) => collection.id)),
      this.options.embeddings(siteId).versions(this.model),
    ]);
    const stored = new Map(versions.map((version) => [version.itemId, version]));
    const changedAt: number[] = [];
    for (const item of items) {
      const version = stored.get(item.id);
      const current =
        version !== undefined && version.sourceRevision === item.revision && version.sourceUpdatedAt.getTime() === item.updatedAt.getTime();
      if (!current) changedAt.push(item.updatedAt.getTime());
    }
    return changedAt;
  }

  private async reembed(siteId: string): Promise<void> {
    try {
      await this.options.enqueuer.enqueue({ kind: 'site', siteId });
    } catch (error) {
      this.options.logger.warn({ err: error, siteId }, 'could not queue the re-embedding of a site');
    }
  }

  private async embedQuery(text: string): Promise<Float32Array> {
    try {
      const [vector] = await this.options.embedder.embed([text]);
      return vector as Float32Array;
    } catch (error) {
      if (error instanceof EmbeddingProviderError)
        throw new UnavailableError({ message: `The embedding provider failed: ${error.message}` });
      throw error;
    }
  }
}

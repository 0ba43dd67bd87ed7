// One collection: documents by _id in natural (insertion) order plus its indexes and their uniqueness.
import { calculateObjectSize, type Document, UUID } from 'bson';
import type { ChangeSink } from './change-op.js';
import { CommandError } from './command-error.js';
import { duplicateKeyError } from './duplicate-key-error.js';
import { EqualityPostings, type PostingMatch, servesEquality } from './equality-postings.js';
import { ID_INDEX, type IndexSpec, SecondaryIndex } from './index-spec.js';
import { valueKey } from './value-key.js';

/** MongoDB's limit on a stored document (BSONObjMaxUserSize). */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

interface IndexState {
  index: SecondaryIndex;
  /** Unique indexes only: index key → _id key of the owning document. */
  owners?: Map<string, string>;
  /** Indexes that can answer equality on their leading fields (not partial, sparse or special). */
  postings?: EqualityPostings;
}

/**
 * Stored documents are never mutated: updates build a new object and swap it in. Cursors,
 * snapshots and in-flight replies can therefore hold references without copying.
 */
export class CollectionStore {
  readonly documents = new Map<string, Document>();
  private readonly indexes = new Map<string, IndexState>();
  /** Each document's place in natural (insertion) order, which an update keeps. */
  private readonly ordinals = new Map<string, number>();
  private nextOrdinal = 0;

  constructor(
    readonly dbName: string,
    readonly name: string,
    readonly options: Document,
    private readonly record: ChangeSink,
    readonly uuid: UUID = new UUID(),
  ) {}

  get namespace(): string {
    return `${this.dbName}.${this.name}`;
  }

  findById(id: unknown): Document | undefined {
    return this.documents.get(valueKey(id));
  }

  /**
   * The documents that can match `filter`, in natural order, through the index whose leading fields the filter names
   * with plain values and that leaves the fewest; undefined when no index serves (a scan). The filter still has to run.
   */
  candidates(filter: Document): Document[] | undefined {
    let best: PostingMatch | undefined;
    for (const { postings } of this.indexes.values()) {
      const match = postings?.lookup(filter);
      if (match && (!best || match.ids.size < best.ids.size)) best = match;
    }
    if (!best) return undefined;
    let ids = [...best.ids];
    if (!best.ordered) {
      ids = ids.sort((left, right) => (this.ordinals.get(left) as number) - (this.ordinals.get(right) as number));
      best.reorder(ids);
    }
    return ids.map((idKey) => this.documents.get(idKey) as Document);
  }

  insert(document: Document): void {
    const size = calculateObjectSize(document);
    if (size > MAX_DOCUMENT_BYTES) {
      throw new CommandError('BSONObjectTooLarge', `object to insert too large. size in bytes: ${size}, max size: ${MAX_DOCUMENT_BYTES}`);
    }
    const idKey = valueKey(document._id);
    if (this.documents.has(idKey)) throw duplicateKeyError(this.namespace, ID_INDEX, [document._id]);
    const claims = this.checkUnique(document, idKey);
    for (const [owners, key] of claims) owners.set(key, idKey);
    this.documents.set(idKey, document);
    const ordinal = this.nextOrdinal++;
    this.ordinals.set(idKey, ordinal);
    for (const { postings } of this.indexes.values()) postings?.add(idKey, ordinal, document);
    this.record({ op: 'put', db: this.dbName, coll: this.name, doc: document });
  }

  /** Swaps `previous` for `next` (same _id) after checking that next breaks no unique index. */
  replace(previous: Document, next: Document): void {
    if (calculateObjectSize(next) > MAX_DOCUMENT_BYTES) {
      throw new CommandError('BSONObjectTooLarge', `Resulting document after update is larger than ${MAX_DOCUMENT_BYTES}`);
    }
    const idKey = valueKey(previous._id);
    const claims = this.checkUnique(next, idKey);
    this.releaseKeys(previous, idKey);
    for (const [owners, key] of claims) owners.set(key, idKey);
    this.documents.set(idKey, next);
    const ordinal = this.ordinals.get(idKey) as number;
    for (const { postings } of this.indexes.values()) postings?.replace(idKey, ordinal, previous, next);
    this.record({ op: 'put', db: this.dbName, coll: this.name, doc: next });
  }

  remove(document: Document): void {
    const idKey = valueKey(document._id);
    if (!this.documents.delete(idKey)) return;
    this.ordinals.delete(idKey);
    this.releaseKeys(document, idKey);
    for (const { postings } of this.indexes.values()) postings?.remove(idKey, document);
    this.record({ op: 'delete', db: this.dbName, coll: this.name, id: document._id });
  }

  indexSpecs(): IndexSpec[] {
    return [ID_INDEX, ...[...this.indexes.values()].map((state) => state.index.spec)];
  }

  hasIndex(name: string): boolean {
    return name === ID_INDEX.name || this.indexes.has(name);
  }

  /** Builds the index over existing documents; a unique index fails (and is not created) on duplicates. */
  createIndex(spec: IndexSpec): void {
    const state: IndexState = { index: new SecondaryIndex(spec) };
    if (spec.unique) {
      const owners = new Map<string, string>();
      for (const [idKey, document] of this.documents) {
        for (const { key, values } of state.index.keysOf(document)) {
          const owner = owners.get(key);
          if (owner !== undefined && owner !== idKey) throw duplicateKeyError(this.namespace, spec, values);
          owners.set(key, idKey);
        }
      }
      state.owners = owners;
    }
    if (servesEquality(state.index)) {
      state.postings = new EqualityPostings(state.index);
      for (const [idKey, document] of this.documents) state.postings.add(idKey, this.ordinals.get(idKey) as number, document);
    }
    this.indexes.set(spec.name, state);
    this.record({ op: 'createIndex', db: this.dbName, coll: this.name, spec });
  }

  /** Swaps an index's spec for one differing only in options that change no keys (collMod: hidden, TTL). */
  modifyIndex(spec: IndexSpec): void {
    const state = this.indexes.get(spec.name);
    if (!state) throw new CommandError('IndexNotFound', `index not found with name [${spec.name}]`);
    state.index = new SecondaryIndex(spec);
    // Same keys, so the same postings (they only read the index's fields).
    // Journalled as drop + create, which recovery already replays.
    this.record({ op: 'dropIndex', db: this.dbName, coll: this.name, name: spec.name });
    this.record({ op: 'createIndex', db: this.dbName, coll: this.name, spec });
  }

  dropIndex(name: string): void {
    if (name === ID_INDEX.name) throw new CommandError('InvalidOptions', 'cannot drop _id index');
    if (!this.indexes.delete(name)) throw new CommandError('IndexNotFound', `index not found with name [${name}]`);
    this.record({ op: 'dropIndex', db: this.dbName, coll: this.name, name });
  }

  /** Returns the index entries `document` would claim, throwing E11000 if another document holds one. */
  private checkUnique(document: Document, idKey: string): [Map<string, string>, string][] {
    const claims: [Map<string, string>, string][] = [];
    for (const { index, owners } of this.indexes.values()) {
      if (!owners) continue;
      for (const { key, values } of index.keysOf(document)) {
        const owner = owners.get(key);
        if (owner !== undefined && owner !== idKey) throw duplicateKeyError(this.namespace, index.spec, values);
        claims.push([owners, key]);
      }
    }
    return claims;
  }

  private releaseKeys(document: Document, idKey: string): void {
    for (const { index, owners } of this.indexes.values()) {
      if (!owners) continue;
      for (const { key } of index.keysOf(document)) if (owners.get(key) === idKey) owners.delete(key);
    }
  }
}

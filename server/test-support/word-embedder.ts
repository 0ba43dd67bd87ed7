// A small deterministic Embedder for tests of retrieval logic: words (lower case, a plural's trailing s dropped)
// (a few stop words skipped) hashed into a bag-of-words vector, L2-normalised. Texts sharing words are near; texts sharing none are orthogonal
// unless two words collide. It also counts the texts it embedded.
import { type Embedder, normalize } from '../src/retrieval/embeddings/embedder.js';

export class WordEmbedder implements Embedder {
  readonly model = 'test-words-v1';
  readonly dims: number;
  /** Every text embedded, in order. */
  readonly embedded: string[] = [];

  constructor({ dims = 1024 }: { dims?: number } = {}) {
    this.dims = dims;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.embedded.push(...texts);
    return texts.map((text) => {
      const vector = new Float32Array(this.dims);
      for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
        if (word.length < 2 || IGNORED.has(word)) continue;
        const stem = word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word;
        const index = hash(stem) % this.dims;
        vector[index] = (vector[index] ?? 0) + 1;
      }
      return normalize(vector);
    });
  }
}

const IGNORED = new Set(['the', 'an', 'of', 'to', 'in', 'on', 'and', 'or', 'is', 'for', 'with', 'as', 'by', 'it', 'its', 'also', 'called']);

function hash(word: string): number {
  let value = 2166136261;
  for (let index = 0; index < word.length; index++) value = Math.imul(value ^ word.charCodeAt(index), 16777619) >>> 0;
  return value;
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentWords, LOCAL_EMBEDDING_DIMS, LOCAL_EMBEDDING_MODEL, LocalEmbedder } from './local-embedder.js';

const embedder = new LocalEmbedder();
const norm = (vector: Float32Array) => Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
const cosine = (left: Float32Array, right: Float32Array) => left.reduce((sum, value, index) => sum + value * (right[index] as number), 0);

describe('the local embedder', () => {
  it('names its model and dimensions, and returns one unit vector per text, in order', async () => {
    expect(embedder.model).toBe(LOCAL_EMBEDDING_MODEL);
    expect(embedder.dims).toBe(LOCAL_EMBEDDING_DIMS);
    const vectors = await embedder.embed(['Sourdough bread', 'Saturn has rings', '']);
    expect(vectors).toHaveLength(3);
    expect(vectors.map((vector) => vector.length)).toEqual([1024, 1024, 1024]);
    expect(norm(vectors[0]!)).toBeCloseTo(1, 5);
    expect(norm(vectors[2]!)).toBe(0);
    expect(cosine(vectors[0]!, vectors[1]!)).toBeLessThan(0.2);
  });

  it('is deterministic and unit-length for any text (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const first = embedder.embedOne(text);
        expect(Array.from(embedder.embedOne(text))).toEqual(Array.from(first));
        const length = norm(first);
        expect(length === 0 || Math.abs(length - 1) < 1e-5).toBe(true);
      }),
    );
  });

  it('ignores case, accents, stop words and plural or verb endings', () => {
    expect(contentWords('The Cafés are BAKING cakes!')).toEqual(['caf', 'bak', 'cak']);
    expect(cosine(embedder.embedOne('Café recipes'), embedder.embedOne('the cafe recipe'))).toBeCloseTo(1, 5);
    expect(cosine(embedder.embedOne('baking bread'), embedder.embedOne('baked breads'))).toBeGreaterThan(0.99);
  });

  it('scores a text nearer to one sharing its words, word pairs and spellings than to one that does not', () => {
    const query = embedder.embedOne('chocolate cake with ganache');
    const near = embedder.embedOne('A chocolate cake covered in ganache');
    const typo = embedder.embedOne('choclate');
    const far = embedder.embedOne('The striker scored twice in the derby');
    expect(cosine(query, near)).toBeGreaterThan(cosine(query, typo));
    expect(cosine(query, typo)).toBeGreaterThan(cosine(query, far));
    expect(cosine(query, far)).toBeLessThan(0.1);
  });
});

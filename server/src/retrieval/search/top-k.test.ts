// The bounded heap behind exact search: whatever the scores (ties, negatives, fewer than k), the k best, best first
// (`+ 0` turns -0 into 0: the two tie, and which of them is kept is no one's concern).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dot, TopK } from './top-k.js';

describe('TopK', () => {
  it('keeps the k best scores of any stream, best first, each with its own value (property)', () => {
    const score = fc.oneof(
      fc.double({ min: -1, max: 1, noNaN: true }).map((value) => value + 0),
      fc.constantFrom(0, 0.5, -0.5),
    );
    fc.assert(
      fc.property(fc.array(score, { maxLength: 200 }), fc.integer({ min: 0, max: 30 }), (scores, k) => {
        const top = new TopK<number>(k);
        for (const [index, value] of scores.entries()) top.offer(value, index);
        const kept = top.sorted();
        expect(kept.map((entry) => entry.score)).toEqual([...scores].sort((left, right) => right - left).slice(0, k));
        for (const entry of kept) expect(scores[entry.value]).toBe(entry.score);
        expect(new Set(kept.map((entry) => entry.value)).size).toBe(kept.length);
      }),
      { numRuns: 300 },
    );
  });

  it('dot is the sum of the products over the shorter length, whatever the lengths (property)', () => {
    const vector = fc
      .array(fc.float({ min: -1, max: 1, noNaN: true, noDefaultInfinity: true }), { maxLength: 40 })
      .map((values) => Float32Array.from(values));
    fc.assert(
      fc.property(vector, vector, (left, right) => {
        let expected = 0;
        for (let index = 0; index < Math.min(left.length, right.length); index++)
          expected += (left[index] as number) * (right[index] as number);
        expect(dot(left, right)).toBeCloseTo(expected, 9);
        expect(dot(right, left)).toBeCloseTo(expected, 9);
      }),
      { numRuns: 500 },
    );
  });
});

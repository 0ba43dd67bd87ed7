// sameTarget is the one comparison of an approval's target with the site's (at decision, by the target watch, by the
// worker before a one-step approval and before each step of a plan): the same identity whatever the key order.
import fc from 'fast-check';
import { type ApprovalTarget, TARGET_KINDS } from '@lumibase/shared';
import { describe, expect, it } from 'vitest';
import { sameTarget } from './approval-targets.js';

const targetArbitrary: fc.Arbitrary<ApprovalTarget> = fc.record(
  {
    kind: fc.constantFrom(...TARGET_KINDS),
    collection: fc.string({ maxLength: 8 }),
    collectionId: fc.stringMatching(/^[0-9a-f]{24}$/),
    field: fc.string({ maxLength: 8 }),
    id: fc.stringMatching(/^[0-9a-f]{24}$/),
    revision: fc.integer({ min: 1, max: 1000 }),
  },
  { requiredKeys: ['kind'] },
);

/** The same members in another order (as a target read back from the store, or built by another module, may have them). */
function shuffled(target: ApprovalTarget, order: number[]): ApprovalTarget {
  const entries = Object.entries(target);
  const keyed = entries.map((entry, index) => ({ entry, rank: order[index % order.length] ?? 0 }));
  keyed.sort((a, b) => a.rank - b.rank);
  return Object.fromEntries(keyed.map(({ entry }) => entry)) as ApprovalTarget;
}

describe('sameTarget', () => {
  it('is the same target whatever the order of its keys, and a different one when any member differs', () => {
    fc.assert(
      fc.property(targetArbitrary, targetArbitrary, fc.array(fc.integer(), { minLength: 1, maxLength: 6 }), (target, other, order) => {
        const reordered = shuffled(target, order);
        expect(sameTarget(target, reordered)).toBe(true);
        expect(sameTarget(reordered, target)).toBe(true);
        // JSON.stringify (the comparison run-plan.ts used before) told these apart when the order differed.
        const sameMembers = JSON.stringify(Object.entries(target).sort()) === JSON.stringify(Object.entries(other).sort());
        expect(sameTarget(target, shuffled(other, order))).toBe(sameMembers);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves out members that are undefined, and none is none', () => {
    fc.assert(
      fc.property(targetArbitrary, (target) => {
        expect(sameTarget({ ...target, collectionId: undefined }, shuffled({ ...target, collectionId: undefined }, [3, 1, 2]))).toBe(true);
        expect(sameTarget(target, undefined)).toBe(false);
      }),
    );
    expect(sameTarget(undefined, undefined)).toBe(true);
  });
});

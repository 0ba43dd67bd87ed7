// The direct path for top-level $set / $unset / $inc / $max / $min leaves every document exactly as mingo's updater
// does (values and field order), and hands everything else to mingo untouched (property).
import { ObjectId } from 'bson';
import fc from 'fast-check';
import { Context } from 'mingo/core';
import { update as mingoUpdate } from 'mingo/updater';
import { cloneDeep } from 'mingo/util';
import { describe, expect, it } from 'vitest';
import { MINGO_QUERY_OPTIONS } from './mingo-options.js';
import { applyTopLevelUpdate } from './top-level-update.js';

const value = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.double({ min: -10, max: 10, noNaN: true }),
  fc.constantFrom('a', 'b', null, true, new ObjectId('64b7f0000000000000000001')),
  fc.constantFrom(new Date('2026-01-01T00:00:00Z'), new Date('2027-01-01T00:00:00Z')),
  fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 3 }),
  fc.record({ x: fc.integer({ min: 0, max: 3 }) }, { noNullPrototype: true }),
);
const field = fc.constantFrom('a', 'b', 'c', 'd', '_id', 'e.f', '$x');
const document = fc
  .dictionary(fc.constantFrom('a', 'b', 'c'), value, { maxKeys: 3, noNullPrototype: true })
  .map((fields) => ({ _id: 1, ...fields }));
const operator = fc.constantFrom('$set', '$unset', '$inc', '$max', '$min', '$mul');
/** One operator per path, as the engine's conflict check leaves them. */
const modifier = fc.uniqueArray(fc.tuple(field, operator, value), { selector: ([path]) => path, maxLength: 4 }).map((entries) => {
  const built: Record<string, Record<string, unknown>> = {};
  for (const [path, name, argument] of entries) built[name] = { ...built[name], [path]: name === '$unset' ? '' : argument };
  return built;
});
const OPTIONS = { queryOptions: { ...MINGO_QUERY_OPTIONS, context: Context.init({}) } };

describe('applyTopLevelUpdate', () => {
  it('leaves a document as mingo’s updater would, or declines and leaves it untouched (property)', () => {
    let applied = 0;
    fc.assert(
      fc.property(document, modifier, (original, update) => {
        const direct = cloneDeep(original) as typeof original;
        const viaMingo = cloneDeep(original) as typeof original;
        let mingoError: unknown;
        try {
          mingoUpdate(viaMingo, update, [], undefined, OPTIONS as never);
        } catch (error) {
          mingoError = error;
        }
        if (!applyTopLevelUpdate(direct, update)) {
          expect(direct).toStrictEqual(original);
          return;
        }
        applied++;
        expect(mingoError).toBeUndefined();
        expect(direct).toStrictEqual(viaMingo);
        expect(Object.keys(direct)).toEqual(Object.keys(viaMingo));
      }),
      { numRuns: 2000 },
    );
    // The direct path is taken, not only declined.
    expect(applied).toBeGreaterThan(500);
  });
});

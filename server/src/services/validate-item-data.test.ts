// Item data against fields: each type's rule, required fields, unknown fields, and the create/patch difference.
import { type Field, ValidationError } from '@lumibase/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateItemData } from './validate-item-data.js';

const field = (name: string, type: Field['type'], extra: Partial<Field> = {}): Field => ({ name, type, required: false, ...extra });

/** For each type: a value that fits it and one that does not. */
const CASES: Array<[Field, fc.Arbitrary<unknown>, fc.Arbitrary<unknown>]> = [
  [field('s', 'string'), fc.string(), fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string()))],
  [field('t', 'text'), fc.string(), fc.oneof(fc.double(), fc.object())],
  [field('n', 'number'), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.oneof(fc.string(), fc.boolean())],
  [field('i', 'integer'), fc.maxSafeInteger(), fc.oneof(fc.double({ min: 0.01, max: 0.99 }), fc.string())],
  [field('b', 'boolean'), fc.boolean(), fc.oneof(fc.constantFrom(0, 1, 'true'), fc.string())],
  [
    field('d', 'datetime'),
    fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((date) => date.toISOString()),
    fc.oneof(fc.constantFrom('2024-01-01', '2024-01-01T10:00:00', 'soon'), fc.integer()),
  ],
  [
    field('e', 'enum', { options: { values: ['x', 'y'] } }),
    fc.constantFrom('x', 'y'),
    fc.oneof(fc.constantFrom('z', 'X', ''), fc.integer()),
  ],
];

function details(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return (error.details ?? []).map((detail) => detail.path);
    throw error;
  }
  return [];
}

describe('validateItemData', () => {
  it.each(CASES)('accepts values of the %o type and refuses others at data.<field>', (definition, fits, misfits) => {
    fc.assert(
      fc.property(fits, misfits, (good, bad) => {
        expect(validateItemData([definition], { [definition.name]: good }, 'create').set).toEqual({ [definition.name]: good });
        expect(details(() => validateItemData([definition], { [definition.name]: bad }, 'create'))).toEqual([`data.${definition.name}`]);
      }),
      { numRuns: 100 },
    );
  });

  it('accepts any JSON value in a json field', () => {
    fc.assert(
      fc.property(
        fc.jsonValue().filter((value) => value !== null),
        (value) => {
          expect(validateItemData([field('j', 'json')], { j: value }, 'create').set).toEqual({ j: value });
        },
      ),
      { numRuns: 100 },
    );
  });

  it('refuses unknown fields, including prototype names', () => {
    const data = JSON.parse('{"__proto__": 1, "constructor": 2, "toString": 3}') as Record<string, unknown>;
    expect(details(() => validateItemData([field('s', 'string')], data, 'create')).sort()).toEqual([
      'data.__proto__',
      'data.constructor',
      'data.toString',
    ]);
  });

  it('requires required fields on create (absent or null), but not on patch unless set to null', () => {
    const fields = [field('title', 'string', { required: true }), field('note', 'text')];
    expect(details(() => validateItemData(fields, {}, 'create'))).toEqual(['data.title']);
    expect(details(() => validateItemData(fields, { title: null }, 'create'))).toEqual(['data.title']);
    expect(validateItemData(fields, { note: 'x' }, 'patch')).toEqual({ set: { note: 'x' }, unset: [] });
    expect(details(() => validateItemData(fields, { title: null }, 'patch'))).toEqual(['data.title']);
  });

  it('drops null optional values on create and unsets them on patch', () => {
    const fields = [field('note', 'text')];
    expect(validateItemData(fields, { note: null }, 'create')).toEqual({ set: {}, unset: [] });
    expect(validateItemData(fields, { note: null }, 'patch')).toEqual({ set: {}, unset: ['note'] });
  });
});

describe('limits (docs/API.md, Content)', () => {
  const messages = (fields: Field[], data: Record<string, unknown>) => {
    try {
      validateItemData(fields, data, 'create');
    } catch (error) {
      if (error instanceof ValidationError) return (error.details ?? []).map((detail) => `${detail.path}: ${detail.message}`);
      throw error;
    }
    return [];
  };

  it('a text value is at most 1,000,000 characters, a string 1,000, either lowered by options.maxLength', () => {
    expect(messages([field('t', 'text')], { t: 'a'.repeat(1_000_000) })).toEqual([]);
    expect(messages([field('t', 'text')], { t: 'a'.repeat(1_000_001) })).toEqual([
      'data.t: Too long: at most 1,000,000 characters (this has 1,000,001)',
    ]);
    expect(messages([field('s', 'string', { options: { maxLength: 5000 } })], { s: 'a'.repeat(1001) })).toEqual([
      'data.s: Too long: at most 1,000 characters (this has 1,001)',
    ]);
    expect(messages([field('t', 'text', { options: { maxLength: 3 } })], { t: 'abcd' })).toEqual([
      'data.t: Too long: at most 3 characters (this has 4)',
    ]);
  });

  it('never accepts a number that is not finite, whatever the type', () => {
    fc.assert(
      fc.property(fc.constantFrom(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN), (value) => {
        expect(messages([field('n', 'number')], { n: value })).toHaveLength(1);
        expect(messages([field('i', 'integer')], { i: value })).toHaveLength(1);
        expect(messages([field('j', 'json')], { j: { deep: [value] } })).toHaveLength(1);
      }),
    );
  });
});

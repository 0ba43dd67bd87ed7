// Field names made from an admin's words: valid, meaningful, and clear of the names taken.
import { NAME_PATTERN } from '@lumibase/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveFieldName, uniqueFieldName } from './field-name.js';

describe('deriveFieldName', () => {
  it.each([
    ['The date when the post goes live', 'date_post_goes'],
    ['Café opening hours', 'cafe_opening_hours'],
    ['3D model URL', 'model_url'],
    ['a field for the', undefined],
    ['!!!', undefined],
  ])('%j → %s', (description, name) => {
    expect(deriveFieldName(description)).toBe(name);
  });

  it('gives a valid name or none, for any words (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (description) => {
        const name = deriveFieldName(description);
        if (name !== undefined) expect(name).toMatch(NAME_PATTERN);
      }),
    );
  });
});

describe('uniqueFieldName', () => {
  it('numbers a taken name', () => {
    expect(uniqueFieldName('title', new Set(['title', 'title_2']))).toBe('title_3');
    expect(uniqueFieldName('title', new Set(['body']))).toBe('title');
  });

  it('gives a valid name that is not taken (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(NAME_PATTERN), fc.array(fc.stringMatching(NAME_PATTERN), { maxLength: 20 }), (base, others) => {
        const taken = new Set([base, `${base.slice(0, 62)}_2`, ...others]);
        const name = uniqueFieldName(base, taken);
        expect(name).toMatch(NAME_PATTERN);
        expect(taken.has(name)).toBe(false);
      }),
    );
  });
});

// Numbers as people write them: the locale's decimal mark and groups, refusals in words, never 1250 for "12,50".
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumberForInput, parseLocaleNumber } from './locale-number.js';

describe('parseLocaleNumber', () => {
  it('reads a comma as the decimal mark where the locale writes decimals so', () => {
    expect(parseLocaleNumber('12,50', 'de-DE')).toEqual({ ok: true, value: 12.5 });
    expect(parseLocaleNumber('1.250,75', 'de-DE')).toEqual({ ok: true, value: 1250.75 });
    expect(parseLocaleNumber('1.250', 'de-DE')).toEqual({ ok: true, value: 1250 });
    expect(parseLocaleNumber('1 250,5', 'fr-FR')).toEqual({ ok: true, value: 1250.5 });
    expect(parseLocaleNumber('-0,25', 'de-DE')).toEqual({ ok: true, value: -0.25 });
  });

  it('reads a point as the decimal mark and a comma as thousands in English', () => {
    expect(parseLocaleNumber('12.50', 'en-US')).toEqual({ ok: true, value: 12.5 });
    expect(parseLocaleNumber('1,250', 'en-US')).toEqual({ ok: true, value: 1250 });
    expect(parseLocaleNumber('1,250.5', 'en-US')).toEqual({ ok: true, value: 1250.5 });
    expect(parseLocaleNumber('.5', 'en-US')).toEqual({ ok: true, value: 0.5 });
    expect(parseLocaleNumber('2.5e3', 'de-DE')).toEqual({ ok: true, value: 2500 });
  });

  it('refuses a mark the locale does not use for decimals, saying how to write it, rather than reading 1250', () => {
    expect(parseLocaleNumber('12,50', 'en-US')).toEqual({ ok: false, message: 'Write decimals with a point: 12.50' });
    expect(parseLocaleNumber('12.50', 'de-DE')).toEqual({ ok: false, message: 'Write decimals with a comma: 12,50' });
    expect(parseLocaleNumber('1,2,3', 'en-US')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Enter a number the way you write one here/),
    });
    expect(parseLocaleNumber('abc', 'en-US')).toEqual({ ok: false, message: 'Enter a number' });
  });

  it('refuses numbers that are not finite', () => {
    for (const text of ['1e400', '-1e400', '1E999']) {
      expect(parseLocaleNumber(text, 'en-US')).toEqual({
        ok: false,
        message: 'This number is too large: numbers go up to about 1.8 × 10³⁰⁸',
      });
    }
    expect(parseLocaleNumber('9'.repeat(400), 'en-US').ok).toBe(false);
  });

  it('reads back every finite number as its input shows it, in either kind of locale', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom('en-US', 'de-DE', 'fr-FR', 'de-CH'),
        (value, locale) => {
          const parsed = parseLocaleNumber(formatNumberForInput(value, locale), locale);
          expect(parsed).toEqual({ ok: true, value: value === 0 ? parsed.ok && parsed.value : value });
        },
      ),
    );
  });
});

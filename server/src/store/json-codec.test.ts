import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeJson, encodeJson, JsonEncodingError } from './json-codec.js';
import { jsonArbitrary } from '../../test-support/ai-arbitraries.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('encodeJson', () => {
  it('writes JSON that JSON.parse reads back deep-equal, -0 and __proto__ keys included', () => {
    fc.assert(
      fc.property(jsonArbitrary, (value) => {
        const text = encodeJson(value);
        expect(decodeJson(text)).toEqual(value);
        // Escaped lone surrogates: the text is valid UTF-16, so BSON's UTF-8 keeps it intact.
        expect(LONE_SURROGATE.test(text)).toBe(false);
      }),
      { numRuns: 300 },
    );
    expect(Object.is((decodeJson(encodeJson([-0])) as number[])[0], -0)).toBe(true);
  });

  it('refuses what JSON cannot hold, naming where', () => {
    expect(() => encodeJson({ a: [1, Number.NaN] })).toThrow(new JsonEncodingError('a.1', 'NaN'));
    expect(() => encodeJson({ n: 1n })).toThrow(JsonEncodingError);
  });
});

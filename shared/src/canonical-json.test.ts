// Canonical JSON: one text per value whatever its key order (the audit chain's hashes cover it).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

/** The same members in another order, at every depth. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).reverse();
    const copy: Record<string, unknown> = {};
    for (const [key, member] of entries) Object.defineProperty(copy, key, { value: reordered(member), enumerable: true, writable: true });
    return copy;
  }
  return value;
}

describe('canonicalJson', () => {
  it('sorts keys at every depth, keeps own __proto__ keys as data, and leaves undefined members out', () => {
    const withProto = JSON.parse('{"b":1,"__proto__":{"z":1,"a":[{"d":2,"c":1}]},"a":null}');
    expect(canonicalJson(withProto)).toBe('{"__proto__":{"a":[{"c":1,"d":2}],"z":1},"a":null,"b":1}');
    expect(canonicalJson({ b: undefined, a: 'x' })).toBe('{"a":"x"}');
  });

  it('writes undefined, undefined elements and non-finite numbers as null', () => {
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson([1, undefined, Number.NaN, Number.POSITIVE_INFINITY])).toBe('[1,null,null,null]');
  });

  it('is valid JSON of the same value, and the same text whatever the key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalJson(reordered(value))).toBe(text);
      }),
    );
  });
});

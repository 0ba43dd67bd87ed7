// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contrastRatio, parseHex, readTokens, TEXT_PAIRS } from './contrast.js';

const tokens = readTokens(readFileSync(new URL('./tokens.css', import.meta.url), 'utf8'));

function color(name: string) {
  const value = tokens.get(name);
  const rgb = value === undefined ? undefined : parseHex(value);
  if (!rgb) throw new Error(`--${name} is not a hex colour in tokens.css (${value})`);
  return rgb;
}

describe('contrast of the design tokens', () => {
  it('computes WCAG ratios (black on white is 21:1, a colour on itself 1:1)', () => {
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrastRatio([118, 118, 118], [255, 255, 255])).toBeCloseTo(4.54, 2);
    expect(contrastRatio([79, 70, 229], [79, 70, 229])).toBe(1);
    expect(parseHex('#fff')).toEqual([255, 255, 255]);
  });

  const pairs = Object.entries(TEXT_PAIRS).flatMap(([text, backgrounds]) => backgrounds.map((background) => [text, background] as const));
  it.each(pairs)('--%s on --%s reaches 4.5:1', (text, background) => {
    expect(contrastRatio(color(text), color(background))).toBeGreaterThanOrEqual(4.5);
  });
});

// WCAG 2 contrast ratios of the design tokens: relative luminance of sRGB colours, and the pairs of text and
// background tokens the Studio draws (each must reach 4.5:1, the level for normal-size text).

export type Rgb = readonly [number, number, number];

/** "#rgb" or "#rrggbb" → [r, g, b] in 0–255; undefined for anything else (gradients, rgb() with alpha). */
export function parseHex(value: string): Rgb | undefined {
  const hex = value.trim().match(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i)?.[1];
  if (!hex) return undefined;
  const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex;
  return [0, 2, 4].map((start) => Number.parseInt(full.slice(start, start + 2), 16)) as unknown as Rgb;
}

export function luminance([red, green, blue]: Rgb): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue);
}

export function contrastRatio(first: Rgb, second: Rgb): number {
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The `--name: value;` custom properties of a stylesheet. */
export function readTokens(css: string): Map<string, string> {
  const tokens = new Map<string, string>();
  for (const match of css.matchAll(/--([\w-]+)\s*:\s*([^;]+);/g)) tokens.set(match[1] as string, (match[2] as string).trim());
  return tokens;
}

const SURFACES = ['color-bg', 'color-surface', 'color-surface-muted', 'color-surface-hover', 'color-surface-subtle', 'color-sidebar'];

/** Text token → the background tokens it is drawn on. */
export const TEXT_PAIRS: Record<string, readonly string[]> = {
  'color-text': SURFACES,
  'color-text-muted': SURFACES,
  'color-text-subtle': SURFACES,
  'color-accent': [...SURFACES, 'color-accent-soft'],
  'color-accent-text': [...SURFACES, 'color-accent-soft', 'color-accent-muted'],
  'color-danger-text': [...SURFACES, 'color-danger-soft'],
  'color-success-text': [...SURFACES, 'color-success-soft'],
  'color-warning-text': [...SURFACES, 'color-warning-soft'],
  'color-text-inverse': ['color-accent', 'color-accent-hover', 'color-danger', 'color-danger-hover', 'color-brand-deep', 'color-success'],
};

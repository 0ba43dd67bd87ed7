// Medians, percentiles and ratios: every figure the bench prints is one of these.

/** The value below which `fraction` of the samples lie (nearest rank); NaN for no samples. */
export function percentile(samples: readonly number[], fraction: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * fraction) - 1))] as number;
}

export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The ratio of two medians; NaN when the baseline is not a positive number. */
export function ratio(measured: number, baseline: number): number {
  return baseline > 0 && Number.isFinite(measured) ? measured / baseline : Number.NaN;
}

/**
 * Runs `measured` and `baseline` alternately `repetitions` times (so both see the same machine load)
 * and answers the median of each.
 */
export async function alternate(
  repetitions: number,
  measured: (repetition: number) => Promise<number>,
  baseline: (repetition: number) => Promise<number>,
): Promise<{ measured: number; baseline: number; measuredRuns: number[]; baselineRuns: number[] }> {
  const measuredRuns: number[] = [];
  const baselineRuns: number[] = [];
  for (let repetition = 0; repetition < repetitions; repetition++) {
    // Each side goes first every other time: neither always pays for the other's leftovers.
    if (repetition % 2 === 0) {
      measuredRuns.push(await measured(repetition));
      baselineRuns.push(await baseline(repetition));
    } else {
      baselineRuns.push(await baseline(repetition));
      measuredRuns.push(await measured(repetition));
    }
  }
  return { measured: median(measuredRuns), baseline: median(baselineRuns), measuredRuns, baselineRuns };
}

export function elapsedMs(since: number): number {
  return performance.now() - since;
}

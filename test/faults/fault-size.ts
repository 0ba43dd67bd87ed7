// How big a fault scenario runs: small enough for `npm test` on 2 cores, the counts with FAULTS_FULL=1 (by hand).

export const FAULTS_FULL = process.env.FAULTS_FULL === '1';

/** `ci` in `npm test`, `full` when FAULTS_FULL=1. */
export function faultSize(ci: number, full: number): number {
  return FAULTS_FULL ? full : ci;
}

/** A test's own time limit, scaled with its size. */
export function faultTimeout(ciMs: number, fullMs: number): number {
  return FAULTS_FULL ? fullMs : ciMs;
}

/** A seeded random source, so a failing run can be repeated (FAULTS_SEED=<printed seed>). */
export function seededRandom(label: string): { seed: number; next: () => number; int: (min: number, max: number) => number } {
  const seed = Number(process.env.FAULTS_SEED ?? Math.floor(Math.random() * 2 ** 31));
  let state = seed >>> 0 || 1;
  const next = () => {
    // xorshift32
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 2 ** 32;
  };
  console.info(`${label}: FAULTS_SEED=${seed}`);
  return { seed, next, int: (min, max) => min + Math.floor(next() * (max - min + 1)) };
}

// How big and how long: BENCH_QUICK=1 (CI, under a minute) or the full run by hand.
export const QUICK = process.env.BENCH_QUICK === '1';
/** Every figure is the median of this many repetitions of the measured path and of its baseline. */
export const REPETITIONS = 5;

export const SETTINGS = QUICK
  ? {
      p1Operations: 15,
      p2Sizes: [1, 50],
      p2TwoServersSize: 50,
      p3Approvals: 4,
      p4Ms: 400,
      p4Concurrency: 8,
      p6Steps: [50, 100],
      p7Approvals: 5,
      p8Sizes: [1000],
      childLifetimeMs: 90_000,
    }
  : {
      p1Operations: 100,
      p2Sizes: [1, 50, 200, 1000],
      p2TwoServersSize: 200,
      p3Approvals: 40,
      p4Ms: 3000,
      p4Concurrency: 16,
      p6Steps: [250, 500, 1000, 1500, 2000, 2500, 3000],
      p7Approvals: 20,
      p8Sizes: [1000, 10_000, 50_000],
      childLifetimeMs: 15 * 60_000,
    };

export const P2_GOAL_P99 = 1.2;
export const P6_BROADCAST_P95_LIMIT_MS = 250;

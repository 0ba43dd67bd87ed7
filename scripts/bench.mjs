#!/usr/bin/env node
// `npm run bench`: P1–P8 of issue 18 (bench/run.ts; P5 is the embedded MongoDB bench, run from there).
// Every figure is a ratio against a baseline measured in the same run. BENCH_QUICK=1 for the CI size.
import { spawnSync } from 'node:child_process';

const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts'], { stdio: 'inherit' });
process.exit(result.status ?? 1);

#!/usr/bin/env node
// `npm run bench`: every benchmark, one after another. Each prints its numbers as ratios against a
// baseline it measures in the same run (e.g. server time per find against a ping round trip).
import { spawnSync } from 'node:child_process';

const benches = ['bench:embedded-mongo'];
let failed = 0;
for (const bench of benches) {
  console.log(`\n==> npm run ${bench}`);
  const result = spawnSync('npm', ['run', '--silent', bench], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);

#!/usr/bin/env node
// Runs every workspace's tests (vitest projects) and ends with the line CI reads: `N passed, M failed`,
// counted from vitest's own JSON results. Two phases: the in-process suites first (files in parallel),
// then the cross-process suites of test/ (servers, workers, browsers) one file at a time, so the timing-
// sensitive ones never compete with the rest for the machine's cores.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const resultsDir = join(process.cwd(), 'test-results');
mkdirSync(resultsDir, { recursive: true });
const extraArgs = process.argv.slice(2);

const phases = [
  { name: 'in-process', projects: ['shared', 'embedded-mongo', 'server', 'workers', 'web'] },
  { name: 'cross-process', projects: ['test'] },
];

// The Studio's tsconfig extends the one `svelte-kit sync` generates; a fresh clone has none yet.
const sync = spawnSync('npx', ['svelte-kit', 'sync'], { cwd: join(process.cwd(), 'web'), stdio: 'inherit' });
if (sync.status !== 0) console.error('svelte-kit sync failed; the web tests may not load');

let passed = 0;
let failed = 0;
let allExitedCleanly = true;
for (const phase of phases) {
  const resultsFile = join(resultsDir, `vitest-${phase.name}.json`);
  rmSync(resultsFile, { force: true });
  console.log(`\n==> vitest: ${phase.name} (${phase.projects.join(', ')})`);
  const run = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      ...phase.projects.flatMap((project) => ['--project', project]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${resultsFile}`,
      ...extraArgs,
    ],
    { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: process.env.CI ? '0' : process.env.FORCE_COLOR } },
  );
  if (run.status !== 0) allExitedCleanly = false;
  try {
    const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
    passed += results.numPassedTests;
    // A suite that crashes before running any test counts as a failure too.
    failed += results.numFailedTests + (results.numFailedTestSuites > 0 && results.numFailedTests === 0 ? results.numFailedTestSuites : 0);
  } catch (error) {
    console.error(`could not read vitest results from ${resultsFile}: ${error.message}`);
    failed += 1;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(allExitedCleanly && failed === 0 ? 0 : 1);

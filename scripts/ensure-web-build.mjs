#!/usr/bin/env node
// `npm start` serves the built Studio: build it when the build is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = process.cwd();
const buildMarker = join(root, 'web/build/handler.js');
const sources = ['web/src', 'web/static', 'shared/src', 'web/svelte.config.js', 'web/vite.config.ts', 'web/package.json'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

const builtAt = existsSync(buildMarker) ? statSync(buildMarker).mtimeMs : 0;
const changedAt = Math.max(...sources.map((source) => newestMtime(join(root, source))));
if (builtAt >= changedAt) {
  console.log('Studio build is up to date');
} else {
  console.log(builtAt === 0 ? 'Building the Studio (first start)…' : 'Studio sources changed: rebuilding…');
  const result = spawnSync('npm', ['run', 'build', '-w', '@lumibase/web'], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('Studio build failed');
    process.exit(result.status ?? 1);
  }
}

// The README is part of the product: its configuration table and commands must stay true.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configTable } from '@lumibase/server/config';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('README', () => {
  it('holds the configuration table generated from config.ts', () => {
    const between = readme.split('<!-- config-table:start -->')[1]?.split('<!-- config-table:end -->')[0]?.trim();
    expect(between).toBe(configTable());
  });

  it('gives the two quick-start commands, and CI runs the same test command', () => {
    const quickStart = readme.split('## Quick start')[1]?.split('\n## ')[0] ?? '';
    const commands = [...quickStart.matchAll(/```sh\n([^`]+)```/g)].map((match) => match[1]?.trim());
    expect(commands).toEqual(['npm ci && npm start', 'npm test']);
    const ci = readFileSync(join(root, '.ci/run'), 'utf8');
    expect(ci.trimEnd().split('\n').at(-1)).toBe('npm test');
  });

  it('names only npm scripts that exist', () => {
    const named = [...readme.matchAll(/npm run ([a-z:-]+)/g)].map((match) => match[1]);
    for (const script of named) expect(Object.keys(scripts), `npm run ${script}`).toContain(script);
  });
});

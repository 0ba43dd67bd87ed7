// The server's folders are layers a newcomer can read top to bottom: the folder graph drawn from the imports of
// server/src (test files left out) has no circle (docs/architecture.md, "Folders"). The drawing itself is checked on
// a small tree of its own, so the first test can fail.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { folderGraph } from '../../scripts/folder-graph.mjs';

const root = join(import.meta.dirname, '../..');

function treeOf(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'folder-graph-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('the folder graph of server/src', () => {
  it('has no circle', () => {
    const { circles } = folderGraph(join(root, 'server/src')) as { circles: string[][] };
    expect(circles).toEqual([]);
  });

  it('finds a circle between folders and ignores one inside a folder or through a test file', () => {
    const dir = treeOf({
      'a/one.ts': "import { two } from '../b/two.js';\nimport { x } from './x.js';",
      'a/x.ts': "import { one } from './one.js';",
      'b/two.ts': "export { three } from '../c/three.js';",
      'c/three.ts': "import type { One } from '../a/one.js';",
      'd/four.ts': "import { three } from '../c/three.js';",
      'd/four.test.ts': "import { five } from '../e/five.js';",
      'e/five.ts': "import { four } from '../d/four.js';",
    });
    try {
      const { circles } = folderGraph(dir) as { circles: string[][] };
      expect(circles).toEqual([['a', 'b', 'c']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

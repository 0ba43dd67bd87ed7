#!/usr/bin/env node
// The folder graph of a source tree, drawn from its imports: which top-level folder of the tree imports which,
// and every circle among them (strongly connected components of more than one folder). Test files are left out.
// Usage: node scripts/folder-graph.mjs [root=server/src] [--json]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export function folderGraph(root) {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ts$/.test(name) && !/\.test\.ts$/.test(name)) files.push(path);
    }
  };
  walk(root);
  const folderOf = (file) => {
    const parts = relative(root, file).split(sep);
    return parts.length === 1 ? '.' : parts[0];
  };
  const edges = new Map();
  const importPattern = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2];
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier);
      if (!target.startsWith(resolve(root) + sep)) continue;
      const from = folderOf(file);
      const to = folderOf(target);
      if (from === to || from === '.' || to === '.') continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const targets = edges.get(from);
      if (!targets.has(to)) targets.set(to, []);
      targets.get(to).push(`${relative(root, file)} -> ${specifier}`);
    }
  }
  return { edges, circles: stronglyConnected(edges) };
}

function stronglyConnected(edges) {
  const nodes = new Set([...edges.keys(), ...[...edges.values()].flatMap((targets) => [...targets.keys()])]);
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (node) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), indices.get(next)));
    }
    if (low.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of [...nodes].sort()) if (!indices.has(node)) visit(node);
  return components;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 'server/src';
  const { edges, circles } = folderGraph(root);
  if (process.argv.includes('--json')) {
    console.log(
      JSON.stringify({ edges: Object.fromEntries([...edges].map(([from, to]) => [from, [...to.keys()].sort()])), circles }, null, 2),
    );
  } else {
    for (const [from, targets] of [...edges].sort()) console.log(`${from} -> ${[...targets.keys()].sort().join(', ')}`);
    console.log(circles.length === 0 ? 'no circle' : circles.map((circle) => `circle: ${circle.join(', ')}`).join('\n'));
    const circleFolders = new Set(circles.flat());
    for (const [from, targets] of [...edges].sort()) {
      for (const [to, imports] of targets) {
        if (circleFolders.has(from) && circleFolders.has(to) && process.argv.includes('--why'))
          console.log(`  ${from} -> ${to}: ${imports.join('; ')}`);
      }
    }
  }
}

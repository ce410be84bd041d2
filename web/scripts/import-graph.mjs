// The import graph of web/src, read from the source: which file imports which, the floor each
// file lives on, and the arrows that go upward or round in a circle. `npm run lint` runs
// check-imports.mjs, which fails on either.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The floors of the house, lowest first. A file may import from its own floor or below,
 * never above: the shell (app) puts the features together, a feature uses the shared
 * components, and those use the library.
 */
export const FLOORS = [
  { floor: 0, prefixes: ['lib/', 'i18n/', 'locales/'] },
  { floor: 1, prefixes: ['components/'] },
  { floor: 2, prefixes: ['features/'] },
  { floor: 3, prefixes: ['app/', 'main.tsx', 'api-docs/'] },
  // Test helpers build whole apps for tests; only tests import them.
  { floor: 4, prefixes: ['test/'] },
];

export function floorOf(path) {
  const name = path.split(sep).join('/');
  for (const { floor, prefixes } of FLOORS) {
    if (prefixes.some((prefix) => name.startsWith(prefix))) return floor;
  }
  return null;
}

export function isTest(path) {
  return /\.test\.tsx?$/.test(path);
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The relative module names a source file imports (static, re-exports and dynamic). */
export function importsOf(source) {
  const names = [];
  const withoutComments = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const match of withoutComments.matchAll(IMPORT)) {
    const name = match[1] ?? match[2];
    if (name.startsWith('.')) names.push(name);
  }
  return names;
}

const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

function resolveImport(root, from, name) {
  const base = resolve(root, dirname(from), name);
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(root, candidate);
  }
  return null;
}

function sourceFiles(root, dir = '') {
  const files = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(root, path));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** Map of file → files it imports (TypeScript sources only), paths relative to `root`. */
export function readGraph(root) {
  const graph = new Map();
  for (const file of sourceFiles(root)) {
    const targets = new Set();
    for (const name of importsOf(readFileSync(join(root, file), 'utf8'))) {
      const target = resolveImport(root, file, name);
      if (target && /\.tsx?$/.test(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Arrows from a lower floor to a higher one (tests may use the test helpers). */
export function upwardArrows(graph) {
  const arrows = [];
  for (const [from, targets] of graph) {
    const fromFloor = floorOf(from);
    for (const to of targets) {
      const toFloor = floorOf(to);
      if (fromFloor === null || toFloor === null) continue;
      if (toFloor === 4 && isTest(from)) continue;
      if (toFloor > fromFloor) arrows.push({ from, to });
    }
  }
  return arrows;
}

/** Files on a circle, one list per strongly connected component (Tarjan), smallest first. */
export function circles(graph) {
  let index = 0;
  const stack = [];
  const onStack = new Set();
  const indices = new Map();
  const low = new Map();
  const found = [];
  const visit = (node) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), indices.get(next)));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfLoop = (graph.get(node) ?? []).includes(node);
      if (component.length > 1 || selfLoop) found.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indices.has(node)) visit(node);
  return found.sort((a, b) => a.length - b.length || a[0].localeCompare(b[0]));
}

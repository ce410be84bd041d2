// Fails when an import in web/src goes upward (a feature importing the shell, a shared
// component importing a feature) or round in a circle. Run by `npm run lint`.
import { fileURLToPath } from 'node:url';
import { circles, readGraph, upwardArrows } from './import-graph.mjs';

const root = fileURLToPath(new URL('../src/', import.meta.url));
const graph = readGraph(root);
const upward = upwardArrows(graph);
const loops = circles(graph);

for (const { from, to } of upward) console.error(`upward import: ${from} → ${to}`);
for (const loop of loops) console.error(`circle of ${loop.length}: ${loop.join(' → ')}`);
if (upward.length || loops.length) {
  console.error(`${upward.length} upward import(s), ${loops.length} circle(s) in web/src (floors: lib < components < features < app)`);
  process.exit(1);
}
console.log(`imports: ${graph.size} files, none upward, no circle`);

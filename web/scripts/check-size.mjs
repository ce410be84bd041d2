// Gzipped size of the JavaScript the first page load fetches: the entry chunk plus its
// static imports (the modulepreloads), not the lazy chunks. Run after `vite build`.
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const LIMIT_KB = 250;
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestPath)) {
  console.error(`check-size: ${manifestPath} is missing; run "npm run build" first.`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
// The dashboard's entry only: the API reference page (api-docs.html) is a page of its own.
const entries = Object.entries(manifest).filter(([key, chunk]) => chunk.isEntry && key === 'index.html');
if (entries.length === 0) {
  console.error('check-size: no entry chunk in the manifest.');
  process.exit(2);
}

const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) visit(imported);
};
for (const [key] of entries) visit(key);

let total = 0;
const rows = [];
for (const file of [...files].filter((name) => name.endsWith('.js'))) {
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += size;
  rows.push(`  ${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
if (process.argv.includes('--verbose')) console.log(rows.join('\n'));
const kb = total / 1024;
console.log(`initial JS: ${kb.toFixed(1)} KB gzipped (limit ${String(LIMIT_KB)} KB)`);
// index.html stays under one 4 KB pipe buffer: a reader that stops at the first match
// (`curl … | grep -q`, the fresh-machine check) otherwise makes curl fail on a closed pipe.
const HTML_LIMIT = 4096;
const html = readFileSync(join(dist, 'index.html')).length;
console.log(`index.html: ${String(html)} bytes (limit ${String(HTML_LIMIT)})`);
if (html > HTML_LIMIT) {
  console.error(`check-size: index.html is over ${String(HTML_LIMIT)} bytes.`);
  process.exit(1);
}
if (kb > LIMIT_KB) {
  console.error(`check-size: the initial JavaScript is over ${String(LIMIT_KB)} KB gzipped.`);
  process.exit(1);
}

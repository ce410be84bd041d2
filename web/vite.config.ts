/// <reference types="vitest/config" />
import { defineConfig, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const apiTarget = process.env.ENCORE_API ?? 'http://127.0.0.1:8080';

// The dashboard's first load in one chunk: what src/main.tsx imports statically. Left to
// itself the bundler splits it by which lazy pages share each part: 45 files fetched
// anyway, each a <link rel="modulepreload">, which took index.html over 4 KB (a client
// that reads the page through a 4 KB pipe, as `curl | grep -q` does, then failed). The UI
// libraries' barrels import every component, so their modules are not named here: the
// ones the first load uses come along as the captured modules' dependencies.
const entry = fileURLToPath(new URL('./src/main.tsx', import.meta.url));
const barrelled = /node_modules[\\/](@mantine|@tabler)[\\/]/;
let firstLoad: Set<string> | undefined;
function firstLoadChunk(id: string, ctx: Rolldown.ChunkingContext): string | null {
  if (!firstLoad) {
    firstLoad = new Set();
    const queue = [entry];
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      if (firstLoad.has(next)) continue;
      firstLoad.add(next);
      queue.push(...(ctx.getModuleInfo(next)?.importedIds ?? []));
    }
  }
  // The entry itself stays the entry chunk (index.html's script, the manifest's entry).
  return id !== entry && firstLoad.has(id) && !barrelled.test(id) ? 'app' : null;
}

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    manifest: true,
    sourcemap: false,
    // Licences of every bundled dependency, generated from node_modules at build time.
    license: { fileName: 'licenses.json' },
    // Two pages: the dashboard, and the API reference served at /api/docs.
    rolldownOptions: {
      input: { main: 'index.html', apiDocs: 'api-docs.html' },
      output: { codeSplitting: { groups: [{ name: firstLoadChunk }] } },
    },
    // Swagger UI is one 1.5 MB module that only staff reading the API reference load;
    // the dashboard's own budget is scripts/check-size.mjs.
    chunkSizeWarningLimit: 1600,
  },
  server: {
    // The server's list of common passwords (src/features/auth/common-passwords.ts) lives in
    // the repository's assets/, outside web/.
    fs: { allow: ['.', fileURLToPath(new URL('../assets', import.meta.url))] },
    proxy: {
      // ws: the dashboard's live socket, /api/v1/ws.
      '/api': { target: apiTarget, changeOrigin: false, ws: true },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.mjs'],
    css: false,
    // The files share a worker and its jsdom instead of a fresh process each: jsdom, React
    // and Mantine load once, not 62 times (the suite took 2 min on two cores, 20 s so).
    // src/test/setup.ts gives each file fresh modules and a fresh page.
    isolate: false,
    // A test that types a form character by character took over 5 s (vitest's default)
    // while the Rust suites ran beside it (`make test` runs them side by side).
    testTimeout: 20_000,
    // Libraries with state of their own (i18next's language, react-i18next's instance,
    // Mantine's notification queue): evaluated afresh for each file, like our modules.
    server: { deps: { inline: ['i18next', 'react-i18next', '@mantine/notifications'] } },
  },
});

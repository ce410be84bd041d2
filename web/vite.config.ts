/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const apiTarget = process.env.ENCORE_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    manifest: true,
    sourcemap: false,
    // Licences of every bundled dependency, generated from node_modules at build time.
    license: { fileName: 'licenses.json' },
    // Two pages: the dashboard, and the API reference served at /api/docs.
    rollupOptions: { input: { main: 'index.html', apiDocs: 'api-docs.html' } },
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
  },
});

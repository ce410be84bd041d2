import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// The test files share a worker and its jsdom (`isolate: false` in vite.config.ts), and this
// file runs again before each of them: it gives each file what a worker of its own would.
// Our modules, and the libraries that keep state (vite.config.ts's `server.deps.inline`),
// evaluated afresh; a file's `vi.mock` then applies to every import of it.
vi.resetModules();
// A fresh page: empty storage, no cookies, a bare <html>, the first URL; real timers and
// globals (a file that failed half-way may have left them stubbed).
localStorage.clear();
sessionStorage.clear();
for (const cookie of document.cookie.split(';')) {
  const name = cookie.split('=')[0]?.trim();
  if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
}
for (const name of document.documentElement.getAttributeNames()) document.documentElement.removeAttribute(name);
document.head.replaceChildren();
document.body.replaceChildren();
window.history.replaceState(null, '', '/');
vi.useRealTimers();
vi.unstubAllGlobals();
vi.unstubAllEnvs();
// `findBy…` and `waitFor` wait up to 5 s (not 1): a page that loads through several queries
// (the statements: the account, its projects, the month) under a CI machine's full load can
// take longer than a second; a passing test still goes on as soon as its element is there.
configure({ asyncUtilTimeout: 5_000 });
// Unmount what each test rendered. Testing Library does it by itself only in the first file
// of a worker.
afterEach(() => {
  cleanup();
});

// Mantine needs these browser APIs, which jsdom lacks.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
window.scrollTo = () => undefined;

// The import checker run by `npm run lint`, on made-up graphs and on web/src itself.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { circles, floorOf, importsOf, readGraph, upwardArrows } from './import-graph.mjs';

describe('import graph', () => {
  it('reads static, type-only, re-exported and lazy imports, not packages or comments', () => {
    const source = [
      "import { a } from './a';",
      "import type { B } from '../b';",
      "export { c } from './c';",
      "import './side-effect';",
      "const page = () => import('../../features/d/page');",
      "import { useState } from 'react';",
      "// import { e } from './e';",
    ].join('\n');
    expect(importsOf(source)).toEqual(['./a', '../b', './c', './side-effect', '../../features/d/page']);
  });

  it('puts the library under the shared components, under the features, under the shell', () => {
    expect(floorOf('lib/http.ts')).toBeLessThan(floorOf('components/pager.tsx'));
    expect(floorOf('components/pager.tsx')).toBeLessThan(floorOf('features/cart/api.ts'));
    expect(floorOf('features/cart/api.ts')).toBeLessThan(floorOf('app/router.tsx'));
  });

  it('finds a feature importing the shell, and a component importing a feature', () => {
    const graph = new Map([
      ['app/router.tsx', ['features/cart/page.tsx']],
      ['features/cart/page.tsx', ['app/components/x.tsx', 'components/pager.tsx']],
      ['components/pager.tsx', ['features/auth/session.ts']],
      ['features/cart/page.test.tsx', ['test/render.tsx']],
    ]);
    expect(upwardArrows(graph)).toEqual([
      { from: 'features/cart/page.tsx', to: 'app/components/x.tsx' },
      { from: 'components/pager.tsx', to: 'features/auth/session.ts' },
    ]);
  });

  it('finds circles, and only circles', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
      ['e.ts', ['e.ts']],
    ]);
    expect(circles(graph)).toEqual([['e.ts'], ['a.ts', 'b.ts', 'c.ts']]);
  });

  it('web/src has no upward import and no circle', () => {
    const graph = readGraph(join(dirname(fileURLToPath(import.meta.url)), '..', 'src'));
    expect(graph.size).toBeGreaterThan(100);
    expect(upwardArrows(graph)).toEqual([]);
    expect(circles(graph)).toEqual([]);
  });
});

import type { RouteObject } from 'react-router';
import { routes } from './router';

function leaves(list: RouteObject[], parent = ''): { path: string; route: RouteObject }[] {
  return list.flatMap((route) => {
    const path = route.index ? `${parent}/(index)` : `${parent}/${route.path ?? '(layout)'}`;
    return route.children?.length ? leaves(route.children, path) : [{ path, route }];
  });
}

describe('routes', () => {
  it('give every top-level route something to show at the first load', () => {
    for (const route of routes) expect(route.hydrateFallbackElement, route.path ?? 'index').toBeTruthy();
  });

  it('give every leaf route an element, a component or lazy code (redirects render nothing on purpose)', () => {
    for (const { path, route } of leaves(routes)) {
      const shows = route.element !== undefined || route.Component !== undefined || route.lazy !== undefined;
      expect(shows, path).toBe(true);
    }
  });

  it('keep the spec redirects: the root and unknown paths go home', async () => {
    const root = routes.find((route) => route.index);
    const unknown = routes.find((route) => route.path === '*');
    for (const route of [root, unknown]) {
      const loader = route?.loader as () => Response;
      expect(loader().headers.get('Location')).toBe('/home');
    }
  });
});

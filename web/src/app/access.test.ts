import { MENU, ROUTE_ROLES, decideAccess, helpPath, visibleMenu } from './access';
import type { MenuItem } from './access';

const keys = (items: MenuItem[]): string[] =>
  items.flatMap((item) => [item.key, ...(item.children ? keys(item.children) : [])]);

describe('menu visibility per role', () => {
  it('shows a user the fan menu only', () => {
    expect(keys(visibleMenu('user'))).toEqual(['dashboard', 'events', 'my-events', 'about', 'preferences', 'settings']);
    // A project member (an artist) also manages their concerts.
    expect(keys(visibleMenu('user', undefined, true))).toContain('manage-events');
  });

  it('shows an admin users, manage-events and payments with its children, but not faq or 404', () => {
    expect(keys(visibleMenu('admin'))).toEqual([
      'dashboard',
      'events',
      'my-events',
      'users',
      'manage-events',
      'about',
      'payments',
      'payment-methods',
      'pricing-plans',
      'billing',
      'preferences',
      'settings',
    ]);
  });

  it('shows sa the owner entries (faq, 404) but not payments (admin only)', () => {
    expect(keys(visibleMenu('sa'))).toEqual([
      'dashboard',
      'events',
      'my-events',
      'users',
      'manage-events',
      'about',
      'faq',
      '404',
      'preferences',
      'settings',
    ]);
  });

  it('keeps the spec order of the menu', () => {
    expect(MENU.map((item) => item.key)).toEqual([
      'dashboard',
      'events',
      'my-events',
      'users',
      'manage-events',
      'about',
      'payments',
      'faq',
      '404',
      'preferences',
      'settings',
    ]);
  });
});

describe('guard decisions', () => {
  it('sends someone without a session to sign in', () => {
    expect(decideAccess(ROUTE_ROLES.dashboard, false, null)).toBe('login');
    expect(decideAccess(ROUTE_ROLES.users, false, 'admin')).toBe('login');
  });

  it('sends a user opening users, payments, orders or faq to 403', () => {
    for (const route of ['users', 'orders', 'order', 'payment-methods', 'billing', 'pricing-plans', 'faq'] as const) {
      expect(decideAccess(ROUTE_ROLES[route], true, 'user')).toBe('forbidden');
    }
  });

  it('lets every signed-in role open dashboard, preferences, settings, cart, checkout, events and about', () => {
    for (const route of ['dashboard', 'preferences', 'settings', 'cart', 'checkout', 'events', 'my-events', 'about', 'home'] as const) {
      for (const role of ['user', 'admin', 'sa'] as const) expect(decideAccess(ROUTE_ROLES[route], true, role)).toBe('allow');
    }
  });

  it('lets a user open manage-events (a project member manages their concerts; the server refuses others)', () => {
    for (const route of ['manage-events'] as const) {
      for (const role of ['user', 'admin', 'sa'] as const) expect(decideAccess(ROUTE_ROLES[route], true, role)).toBe('allow');
    }
  });

  it('lets admin and sa open users and faq; payments only admin', () => {
    expect(decideAccess(ROUTE_ROLES.users, true, 'admin')).toBe('allow');
    expect(decideAccess(ROUTE_ROLES.users, true, 'sa')).toBe('allow');
    expect(decideAccess(ROUTE_ROLES.faq, true, 'sa')).toBe('allow');
    expect(decideAccess(ROUTE_ROLES.billing, true, 'admin')).toBe('allow');
    expect(decideAccess(ROUTE_ROLES.billing, true, 'sa')).toBe('forbidden');
  });

  it('allows routes without a roles list', () => {
    expect(decideAccess(null, false, null)).toBe('allow');
  });

  it('sends help and support to the FAQ when allowed, else to About', () => {
    expect(helpPath('user')).toBe('/about');
    expect(helpPath('admin')).toBe('/faq');
  });
});

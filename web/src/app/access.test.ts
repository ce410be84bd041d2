import { MENU, ROUTE_ROLES, decideAccess, decideArtistAccess, helpPath, visibleMenu } from './access';
import type { MenuItem } from './access';
import { isStaff } from '../lib/roles';

const keys = (items: MenuItem[]): string[] =>
  items.flatMap((item) => [item.key, ...(item.children ? keys(item.children) : [])]);

/** Every menu opens with the fan's entries and ends with the person's own pages. */
const FAN = ['dashboard', 'events', 'my-events', 'my-orders'];
const OWN = ['preferences', 'settings'];
const PAYMENTS = ['payments', 'payment-methods', 'pricing-plans', 'billing', 'orders'];
const STAFF_MENU = [...FAN, 'live', 'users', 'manage-events', 'projects', 'statements', 'about', ...PAYMENTS];

describe('menu visibility per role', () => {
  it('shows a user the fan menu only', () => {
    expect(keys(visibleMenu('user'))).toEqual([...FAN, 'about', ...OWN]);
    // Even while the outbox is in use.
    expect(keys(visibleMenu('user', undefined, { outbox: true }))).not.toContain('outbox');
  });

  it('shows an artist (a project member) manage-events, projects and statements, and nothing else of the staff', () => {
    expect(keys(visibleMenu('user', undefined, { artist: true }))).toEqual([...FAN, 'manage-events', 'projects', 'statements', 'about', ...OWN]);
  });

  it('shows an admin users, manage-events, projects and payments with its children, but not faq or 404', () => {
    expect(keys(visibleMenu('admin'))).toEqual([...STAFF_MENU, ...OWN]);
  });

  it('shows an sa everything an admin sees, payments included, plus the owner entries (faq, 404)', () => {
    expect(keys(visibleMenu('sa'))).toEqual([...STAFF_MENU, 'faq', '404', ...OWN]);
    const admin = keys(visibleMenu('admin', undefined, { outbox: true }));
    const sa = keys(visibleMenu('sa', undefined, { outbox: true }));
    expect(admin.filter((key) => !sa.includes(key))).toEqual([]);
  });

  it('never lists an entry for admin without sa, nor a route open to admin but not sa', () => {
    const all = (items: MenuItem[]): MenuItem[] => items.flatMap((item) => [item, ...all(item.children ?? [])]);
    for (const item of all(MENU)) {
      if (item.roles.includes('admin')) expect(item.roles, item.key).toContain('sa');
    }
    for (const [route, roles] of Object.entries(ROUTE_ROLES)) {
      if ((roles as readonly string[]).includes('admin')) expect(roles, route).toContain('sa');
    }
  });

  it('shows the outbox to admin and sa only while the dev outbox is in use', () => {
    expect(keys(visibleMenu('admin'))).not.toContain('outbox');
    expect(keys(visibleMenu('admin', undefined, { outbox: false }))).not.toContain('outbox');
    expect(keys(visibleMenu('admin', undefined, { outbox: true }))).toContain('outbox');
    expect(keys(visibleMenu('sa', undefined, { outbox: true, artist: true }))).toContain('outbox');
  });

  it('keeps the spec order of the menu', () => {
    expect(MENU.map((item) => item.key)).toEqual([...FAN, 'live', 'users', 'manage-events', 'projects', 'statements', 'outbox', 'about', 'payments', 'faq', '404', ...OWN]);
  });
});

describe('guard decisions', () => {
  it('sends someone without a session to sign in', () => {
    expect(decideAccess(ROUTE_ROLES.dashboard, false, null)).toBe('login');
    expect(decideAccess(ROUTE_ROLES.users, false, 'admin')).toBe('login');
  });

  type Route = keyof typeof ROUTE_ROLES;
  const SIGNED_IN = ['user', 'admin', 'sa'] as const;
  const DECISIONS: [string, Route[], readonly ('user' | 'admin' | 'sa')[], 'allow' | 'forbidden'][] = [
    ['sends a user opening users, payments, orders or faq to 403', ['users', 'orders', 'order', 'payment-methods', 'billing', 'pricing-plans', 'faq'], ['user'], 'forbidden'],
    [
      'lets every signed-in role open dashboard, preferences, settings, cart, checkout, events and about',
      ['dashboard', 'preferences', 'settings', 'cart', 'checkout', 'events', 'my-events', 'my-orders', 'receipt', 'help', 'about', 'home'],
      SIGNED_IN,
      'allow',
    ],
    ['lets a user open manage-events (a project member manages their concerts; the server refuses others)', ['manage-events'], SIGNED_IN, 'allow'],
    ['lets admin and sa open users, faq, the outbox and every payments page', ['users', 'faq', 'outbox', 'payment-methods', 'billing', 'pricing-plans', 'orders', 'order'], ['admin', 'sa'], 'allow'],
    ['sends a user opening the outbox to 403', ['outbox'], ['user'], 'forbidden'],
    ['lets admin and sa open the Live page, and sends a user to 403', ['live'], ['admin', 'sa'], 'allow'],
    ['sends a user opening the Live page to 403', ['live'], ['user'], 'forbidden'],
    ['lets every signed-in role open notifications and projects (the server lists a member their own)', ['notifications', 'projects'], SIGNED_IN, 'allow'],
  ];

  it.each(DECISIONS)('%s', (_name, routes, roles, decision) => {
    for (const route of routes) {
      for (const role of roles) expect(decideAccess(ROUTE_ROLES[route], true, role), `${role} ${route}`).toBe(decision);
    }
  });

  it('lets staff and the members of a project open statements, and sends a fan with no project to 403', () => {
    expect(decideArtistAccess(ROUTE_ROLES.statements, true, 'admin', false)).toBe('allow');
    expect(decideArtistAccess(ROUTE_ROLES.statements, true, 'sa', false)).toBe('allow');
    expect(decideArtistAccess(ROUTE_ROLES.statements, true, 'user', true)).toBe('allow');
    expect(decideArtistAccess(ROUTE_ROLES.statements, true, 'user', false)).toBe('forbidden');
    expect(decideArtistAccess(ROUTE_ROLES.statements, false, null, true)).toBe('login');
  });

  it('counts admin and sa as staff, nobody else', () => {
    expect([isStaff('admin'), isStaff('sa'), isStaff('user'), isStaff(null), isStaff(undefined)]).toEqual([true, true, false, false, false]);
  });

  it('allows routes without a roles list', () => {
    expect(decideAccess(null, false, null)).toBe('allow');
  });

  it('sends help and support to the fans\' help for every role', () => {
    expect(helpPath()).toBe('/help');
  });
});

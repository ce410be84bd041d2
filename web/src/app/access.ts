/**
 * Who may open what: route roles (spec 2, 6, resolved by DESIGN.md), the guard's
 * decision, and the sidebar menu's role visibility.
 */
import type { Role } from '../lib/roles';
import { ROLES } from '../lib/roles';

export const EVERY_ROLE: readonly Role[] = ROLES;
const STAFF: readonly Role[] = ['admin', 'sa'];

export const ROUTE_ROLES = {
  home: EVERY_ROLE,
  dashboard: EVERY_ROLE,
  settings: EVERY_ROLE,
  preferences: EVERY_ROLE,
  projects: EVERY_ROLE,
  users: STAFF,
  cart: EVERY_ROLE,
  checkout: EVERY_ROLE,
  'checkout-success': EVERY_ROLE,
  events: EVERY_ROLE,
  'my-events': EVERY_ROLE,
  // Project members (role user) manage their projects' concerts; the server answers 403 to others.
  'manage-events': EVERY_ROLE,
  about: EVERY_ROLE,
  'payment-methods': ['admin'],
  billing: ['admin'],
  'pricing-plans': ['admin'],
  orders: STAFF,
  order: STAFF,
  faq: STAFF,
} as const satisfies Record<string, readonly Role[]>;

export type RouteName = keyof typeof ROUTE_ROLES;

export type GuardDecision = 'allow' | 'login' | 'forbidden';

/** The navigation guard: no session → sign in; role not in the route's list → 403. */
export function decideAccess(roles: readonly Role[] | null, hasToken: boolean, role: Role | null): GuardDecision {
  if (roles === null) return 'allow';
  if (!hasToken || role === null) return 'login';
  return roles.includes(role) ? 'allow' : 'forbidden';
}

export interface MenuItem {
  key: string;
  /** Translation key under `nav.` in the common namespace. */
  label: string;
  path?: string;
  roles: readonly Role[];
  icon: MenuIcon;
  children?: MenuItem[];
}

export type MenuIcon =
  | 'dashboard'
  | 'events'
  | 'my-events'
  | 'users'
  | 'manage-events'
  | 'about'
  | 'payments'
  | 'payment-methods'
  | 'pricing-plans'
  | 'billing'
  | 'faq'
  | '404'
  | 'preferences'
  | 'settings';

const SA_ONLY: readonly Role[] = ['sa'];

/** Spec 2's sidebar; `owner` resolved by DESIGN.md (dashboard, preferences, settings: every
 * signed-in role; faq and 404 entries: sa only). */
export const MENU: MenuItem[] = [
  { key: 'dashboard', label: 'nav.dashboard', path: '/dashboard', roles: EVERY_ROLE, icon: 'dashboard' },
  { key: 'events', label: 'nav.events', path: '/events', roles: EVERY_ROLE, icon: 'events' },
  { key: 'my-events', label: 'nav.myEvents', path: '/my-events', roles: EVERY_ROLE, icon: 'my-events' },
  { key: 'users', label: 'nav.users', path: '/users', roles: STAFF, icon: 'users' },
  { key: 'manage-events', label: 'nav.manageEvents', path: '/manage-events', roles: STAFF, icon: 'manage-events' },
  { key: 'about', label: 'nav.about', path: '/about', roles: EVERY_ROLE, icon: 'about' },
  {
    key: 'payments',
    label: 'nav.payments',
    roles: ['admin'],
    icon: 'payments',
    children: [
      { key: 'payment-methods', label: 'nav.paymentMethods', path: '/payments/payment-methods', roles: ['admin'], icon: 'payment-methods' },
      { key: 'pricing-plans', label: 'nav.pricingPlans', path: '/payments/pricing-plans', roles: ['admin'], icon: 'pricing-plans' },
      { key: 'billing', label: 'nav.billing', path: '/payments/billing', roles: ['admin'], icon: 'billing' },
    ],
  },
  { key: 'faq', label: 'nav.faq', path: '/faq', roles: SA_ONLY, icon: 'faq' },
  { key: '404', label: 'nav.notFound', path: '/404', roles: SA_ONLY, icon: '404' },
  { key: 'preferences', label: 'nav.preferences', path: '/preferences', roles: EVERY_ROLE, icon: 'preferences' },
  { key: 'settings', label: 'nav.settings', path: '/settings', roles: EVERY_ROLE, icon: 'settings' },
];

/** An entry is shown only if the user's role is in its list (children filtered too);
 * manage-events is shown to the artists of a project (members, role user) as well. */
export function visibleMenu(role: Role, items: MenuItem[] = MENU, artist = false): MenuItem[] {
  return items
    .filter((item) => item.roles.includes(role) || (artist && item.key === 'manage-events'))
    .map((item) => (item.children ? { ...item, children: visibleMenu(role, item.children, artist) } : item));
}

/** Where "Help and support" leads: the FAQ when the role may open it, else About. */
export function helpPath(role: Role): string {
  return (ROUTE_ROLES.faq as readonly Role[]).includes(role) ? '/faq' : '/about';
}

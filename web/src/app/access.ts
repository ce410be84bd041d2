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
  // Every account's own orders and receipts (the server answers only the reader's own; staff any).
  'my-orders': EVERY_ROLE,
  receipt: EVERY_ROLE,
  help: EVERY_ROLE,
  // Project members (role user) manage their projects' concerts; the server answers 403 to others.
  'manage-events': EVERY_ROLE,
  about: EVERY_ROLE,
  notifications: EVERY_ROLE,
  // The stage view: the full player of the concert in the player.
  stage: EVERY_ROLE,
  // An sa has every right an admin has (the server allows both on payments).
  'payment-methods': STAFF,
  billing: STAFF,
  'pricing-plans': STAFF,
  orders: STAFF,
  order: STAFF,
  faq: STAFF,
  outbox: STAFF,
  live: STAFF,
  // Staff, and the members of a project (their own project's): see `decideArtistAccess`.
  statements: STAFF,
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
  /** Also shown to the artists of a project (members, role user). */
  artists?: true;
  /** Shown only while the dev mail/SMS outbox is in use. */
  needsOutbox?: true;
}

/** What, besides the role, decides which entries are shown. */
export interface MenuContext {
  /** The user is a member of a project. */
  artist?: boolean;
  /** The server writes e-mail and SMS to the dev outbox (no real providers). */
  outbox?: boolean;
}

export type MenuIcon =
  | 'dashboard'
  | 'events'
  | 'my-events'
  | 'users'
  | 'manage-events'
  | 'projects'
  | 'outbox'
  | 'about'
  | 'payments'
  | 'payment-methods'
  | 'pricing-plans'
  | 'billing'
  | 'orders'
  | 'faq'
  | '404'
  | 'preferences'
  | 'settings'
  | 'live'
  | 'statements';

const SA_ONLY: readonly Role[] = ['sa'];

/** The entry of the page `/<key>` (`under` a parent's path: `/payments/<key>`), labelled
 * `nav.<key in camelCase>` and drawn with its key's icon; `more` adds to it. */
function entry(key: MenuIcon, roles: readonly Role[], { under = '', ...more }: Partial<MenuItem> & { under?: string } = {}): MenuItem {
  const label = `nav.${key.replace(/-(.)/g, (_, next: string) => next.toUpperCase())}`;
  return { key, label, path: `${under}/${key}`, roles, icon: key, ...more };
}

/** Spec 2's sidebar; `owner` resolved by DESIGN.md (dashboard, preferences, settings: every
 * signed-in role; faq and 404 entries: sa only). */
export const MENU: MenuItem[] = [
  entry('dashboard', EVERY_ROLE),
  entry('events', EVERY_ROLE),
  entry('my-events', EVERY_ROLE),
  { key: 'my-orders', label: 'nav.myOrders', path: '/my-orders', roles: EVERY_ROLE, icon: 'orders' },
  // What happens now, first of the staff's pages
  entry('live', STAFF),
  entry('users', STAFF),
  entry('manage-events', STAFF, { artists: true }),
  entry('projects', STAFF, { artists: true }),
  entry('statements', STAFF, { artists: true, label: 'statements:title' }),
  entry('outbox', STAFF, { needsOutbox: true }),
  entry('about', EVERY_ROLE),
  {
    key: 'payments',
    label: 'nav.payments',
    roles: STAFF,
    icon: 'payments',
    children: [
      entry('payment-methods', STAFF, { under: '/payments' }),
      entry('pricing-plans', STAFF, { under: '/payments' }),
      entry('billing', STAFF, { under: '/payments' }),
      entry('orders', STAFF, { under: '/payments' }),
    ],
  },
  entry('faq', SA_ONLY),
  entry('404', SA_ONLY, { label: 'nav.notFound' }),
  entry('preferences', EVERY_ROLE),
  entry('settings', EVERY_ROLE),
];

/** A staff route that a project's members open too (the menu's `artists` entries): as
 * `decideAccess`, but an artist is let in where their role alone would be refused. */
export function decideArtistAccess(roles: readonly Role[] | null, hasToken: boolean, role: Role | null, artist: boolean): GuardDecision {
  const decision = decideAccess(roles, hasToken, role);
  return decision === 'forbidden' && artist ? 'allow' : decision;
}

/** An entry is shown if the user's role is in its list, or if it is for artists and the
 * user is one (children filtered too); outbox entries only while the outbox is in use. */
export function visibleMenu(role: Role, items: MenuItem[] = MENU, context: MenuContext = {}): MenuItem[] {
  return items
    .filter((item) => item.roles.includes(role) || (context.artist === true && item.artists === true))
    .filter((item) => item.needsOutbox !== true || context.outbox === true)
    .map((item) => (item.children ? { ...item, children: visibleMenu(role, item.children, context) } : item));
}

/** Where "Help and support" leads: the fans' help (listening, replay, devices, refunds,
 * signing in) for everyone; staff reach the FAQ from the menu. */
export function helpPath(): string {
  return '/help';
}

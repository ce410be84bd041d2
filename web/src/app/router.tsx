import { createBrowserRouter, redirect } from 'react-router';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { EVERY_ROLE, ROUTE_ROLES, decideArtistAccess } from './access';
import type { RouteName } from './access';
import { redirectIfSignedIn, requireRoles } from './guard';
import { RouteError } from '../features/errors/components/route-error';
import { eventListQueryOptions, managedEventsQueryOptions, myEventsQueryOptions } from '../features/events/queries';
import { queryClient } from '../lib/query-client';
import { EVENTS_PAGE_SIZE, MY_EVENTS_PAGE_SIZE } from '../features/events/model';
import { outboxQueryOptions } from '../features/outbox/queries';
import { artistConcertsQueryOptions, artistQueryOptions } from '../features/artist/queries';
import { PageLoader } from './providers';

type PageModule = Record<string, unknown>;

/** Lazy route: the page's code is its own chunk. */
function page(load: () => Promise<PageModule>, exportName: string): RouteObject['lazy'] {
  return async () => {
    const module = await load();
    return { Component: module[exportName] as React.ComponentType };
  };
}

function guarded(
  name: RouteName,
  path: string,
  lazy: RouteObject['lazy'],
  crumb: string,
  prefetch?: () => Promise<unknown>,
): RouteObject {
  const guard = requireRoles(ROUTE_ROLES[name]);
  if (!prefetch) return { path, loader: guard, lazy, handle: { crumb } };
  return {
    path,
    // Once the guard allows it, the page's data starts loading alongside its code (not awaited:
    // the page shows its own loading and error states).
    loader: async (args: LoaderFunctionArgs) => {
      const user = await guard(args);
      prefetch().catch(() => undefined);
      return user;
    },
    lazy,
    handle: { crumb },
  };
}

/** A staff page that a project's members open too (their own project's part; the server
 * answers for the rest): signed in, then staff or an artist, else 403. */
function guardedForArtists(name: RouteName, path: string, lazy: RouteObject['lazy'], crumb: string): RouteObject {
  const signedIn = requireRoles(EVERY_ROLE);
  return {
    path,
    loader: async (args: LoaderFunctionArgs) => {
      const user = await signedIn(args);
      if (decideArtistAccess(ROUTE_ROLES[name], true, user.role, user.projects.length > 0) !== 'allow') throw redirect('/403');
      return user;
    },
    lazy,
    handle: { crumb },
  };
}

/** What a route that only redirects renders: nothing, as its loader leaves first. Said
 * explicitly (React Router warns about a leaf route without an element). */
const REDIRECT_ONLY = null;

const pages: RouteObject[] = [
  { index: true, loader: () => redirect('/home'), element: REDIRECT_ONLY },
  {
    path: '/auth',
    lazy: page(() => import('../features/auth/components/auth-layout'), 'AuthLayout'),
    errorElement: <RouteError />,
    children: [
      { index: true, loader: () => redirect('/auth/login'), element: REDIRECT_ONLY },
      { path: 'login', loader: redirectIfSignedIn, lazy: page(() => import('../features/auth/components/login-page'), 'LoginPage') },
      { path: 'signup', loader: redirectIfSignedIn, lazy: page(() => import('../features/auth/components/signup-page'), 'SignupPage') },
      { path: 'registrate', loader: redirectIfSignedIn, lazy: page(() => import('../features/auth/components/signup-page'), 'RegistratePage') },
      { path: 'recover-password', lazy: page(() => import('../features/auth/components/recover-password-page'), 'RecoverPasswordPage') },
      { path: 'lostpassword', lazy: page(() => import('../features/auth/components/lost-password-page'), 'LostPasswordPage') },
      { path: 'recover-password-email', lazy: page(() => import('../features/auth/components/check-email-page'), 'CheckEmailPage') },
      { path: 'verify-email', lazy: page(() => import('../features/auth/components/verify-email-page'), 'VerifyEmailPage') },
      { path: 'confirm-email', lazy: page(() => import('../features/auth/components/confirm-email-page'), 'ConfirmEmailPage') },
      { path: 'qr', lazy: page(() => import('../features/auth/components/qr-approve-page'), 'QrApprovePage') },
    ],
  },
  // Home is public (the spec gives it no roles): the landing page with the concerts on sale.
  { path: '/home', lazy: page(() => import('../features/home/components/home-page'), 'HomePage'), errorElement: <RouteError /> },
  // A concert's shareable page is public too; the server adds its preview tags.
  { path: '/concerts/:id', lazy: page(() => import('../features/concert/components/concert-page'), 'ConcertPage'), errorElement: <RouteError /> },
  // An artist's page is public as well (the server adds its preview tags): its data starts
  // loading with its code, not awaited (the page shows its own loading and error states).
  {
    path: '/artists/:id',
    loader: ({ params }: LoaderFunctionArgs) => {
      const id = params.id ?? '';
      void queryClient.prefetchQuery(artistQueryOptions(id));
      void queryClient.prefetchQuery(artistConcertsQueryOptions(id));
      return null;
    },
    lazy: page(() => import('../features/artist/components/artist-page'), 'ArtistPage'),
    errorElement: <RouteError />,
  },
  // A gift's claim link lands here, signed in or not (the page offers sign-up and sign-in).
  { path: '/claim', lazy: page(() => import('../features/gifts/components/claim-page'), 'ClaimPage'), errorElement: <RouteError /> },
  { path: '/404', lazy: page(() => import('../features/errors/components/not-found-page'), 'NotFoundPage') },
  { path: '/403', lazy: page(() => import('../features/errors/components/forbidden-page'), 'ForbiddenPage') },
  {
    lazy: page(() => import('./layout/shell-layout'), 'ShellLayout'),
    loader: requireRoles(ROUTE_ROLES.home),
    errorElement: <RouteError />,
    children: [
      guarded('dashboard', '/dashboard', page(() => import('../features/dashboard/components/dashboard-page'), 'DashboardPage'), 'nav.dashboard'),
      guarded('settings', '/settings', page(() => import('../features/settings/components/settings-page'), 'SettingsPage'), 'nav.settings'),
      guarded('preferences', '/preferences', page(() => import('../features/preferences/components/preferences-page'), 'PreferencesPage'), 'nav.preferences'),
      guarded('projects', '/projects', page(() => import('../features/projects/components/projects-page'), 'ProjectsPage'), 'nav.projects'),
      guardedForArtists('statements', '/statements', page(() => import('../features/statements/components/statements-page'), 'StatementsPage'), 'statements:title'),
      guarded('users', '/users', page(() => import('../features/users/components/users-page'), 'UsersPage'), 'nav.users'),
      guarded('cart', '/cart', page(() => import('../features/cart/components/cart-page'), 'CartPage'), 'nav.cart'),
      guarded('checkout', '/checkout', page(() => import('../features/cart/components/checkout-page'), 'CheckoutPage'), 'nav.checkout'),
      guarded('checkout-success', '/checkout-success', page(() => import('../features/cart/components/checkout-success-page'), 'CheckoutSuccessPage'), 'nav.checkoutSuccess'),
      guarded('events', '/events', page(() => import('../features/events/components/events-page'), 'EventsPage'), 'nav.events', () => queryClient.prefetchQuery(eventListQueryOptions({ page: 1, pageSize: EVENTS_PAGE_SIZE, search: '' }))),
      guarded('my-events', '/my-events', page(() => import('../features/events/components/my-events-page'), 'MyEventsPage'), 'nav.myEvents', () => queryClient.prefetchQuery(myEventsQueryOptions(1, MY_EVENTS_PAGE_SIZE))),
      guarded('manage-events', '/manage-events', page(() => import('../features/events/components/manage-events-page'), 'ManageEventsPage'), 'nav.manageEvents', () => queryClient.prefetchQuery(managedEventsQueryOptions())),
      guarded('my-orders', '/my-orders', page(() => import('../features/payments/components/my-orders-page'), 'MyOrdersPage'), 'nav.myOrders'),
      guarded('receipt', '/receipts/:orderId', page(() => import('../features/payments/components/receipt-page'), 'ReceiptPage'), 'nav.receipt'),
      guarded('help', '/help', page(() => import('../features/faq/components/help-page'), 'HelpPage'), 'nav.help'),
      guarded('about', '/about', page(() => import('../features/about/components/about-page'), 'AboutPage'), 'nav.about'),
      {
        path: '/payments',
        handle: { crumb: 'nav.payments' },
        children: [
          { index: true, loader: () => redirect('/payments/payment-methods'), element: REDIRECT_ONLY },
          guarded('payment-methods', 'payment-methods', page(() => import('../features/payments/components/payment-methods-page'), 'PaymentMethodsPage'), 'nav.paymentMethods'),
          guarded('billing', 'billing', page(() => import('../features/payments/components/billing-page'), 'BillingPage'), 'nav.billing'),
          guarded('orders', 'orders', page(() => import('../features/payments/components/orders-page'), 'OrdersPage'), 'nav.orders'),
          guarded('order', 'orders/:orderId', page(() => import('../features/payments/components/orders-page'), 'OrderPage'), 'nav.order'),
          guarded('pricing-plans', 'pricing-plans', page(() => import('../features/payments/components/pricing-plans-page'), 'PricingPlansPage'), 'nav.pricingPlans'),
        ],
      },
      guarded('faq', '/faq', page(() => import('../features/faq/components/faq-page'), 'FaqPage'), 'nav.faq'),
      guarded('outbox', '/outbox', page(() => import('../features/outbox/components/outbox-page'), 'OutboxPage'), 'nav.outbox', () => queryClient.prefetchQuery(outboxQueryOptions())),
      guarded('live', '/live', page(() => import('../features/live/components/live-page'), 'LivePage'), 'nav.live'),
      guarded('stage', '/stage/:concertId', page(() => import('../features/player/components/stage-page'), 'StagePage'), 'stage:crumb'),
      guarded('notifications', '/notifications', page(() => import('../features/notifications/components/notifications-page'), 'NotificationsPage'), 'nav.notifications'),
    ],
  },
  { path: '*', loader: () => redirect('/home'), element: REDIRECT_ONLY },
];

/** Every top-level route shows the page loader while its code or its loader is on the way at
 * the first load (React Router warns about a route that gives nothing to show then). */
export const routes: RouteObject[] = pages.map((route) => ({ ...route, hydrateFallbackElement: <PageLoader /> }) as RouteObject);

export function createAppRouter(): ReturnType<typeof createBrowserRouter> {
  return createBrowserRouter(routes);
}

import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { VerifyEmailBanner } from '../../features/auth/components/verify-email-banner';
import { useAccountPreferences } from '../../features/preferences/account-preferences';
import { meQueryOptions } from '../../features/auth/queries';
import { ActivityToasts } from '../../features/live/components/activity-toasts';
import { LiveProvider } from '../../features/live/socket-provider';
import { LiveNotifications } from '../../features/notifications/components/live-notifications';
import { MINI_PLAYER_HEIGHT, MiniPlayer, useMiniPlayerShown } from '../../features/player/components/mini-player';
import { useTimeZoneSync } from '../../features/users/time-zone-sync';
import { SHELL_BREAKPOINTS, SIDEBAR_WIDTH } from '../../lib/constants';
import { useNavigationLayout } from '../../features/settings/layout-store';
import { isStaff } from '../../lib/roles';
import { PageLoader } from '../providers';
import { AppBreadcrumbs } from './breadcrumbs';
import { useMenuContext } from './menu-context';
import { SidebarMenu } from './sidebar-menu';
import { TopBar } from './top-bar';

/** The signed-in shell: navbar, sidebar (280 px, full width on mobile, collapsed on md
 * and below) or top-bar menu, breadcrumbs and the page, the mini-player at the bottom
 * while a concert is in the player; the tab's live socket while it is shown. */
export function ShellLayout(): ReactNode {
  const { data: user } = useSuspenseQuery(meQueryOptions());
  const layout = useNavigationLayout();
  const menu = useMenuContext(user);
  useTimeZoneSync(user);
  useAccountPreferences(user);
  const [mobileOpened, mobile] = useDisclosure(false);
  const [desktopOpened, desktop] = useDisclosure(true);
  const sideNav = layout === 'side';
  // The player lives here, not in a page: the bar stays while the fan moves around.
  const playerShown = useMiniPlayerShown();
  return (
    <LiveProvider accountId={user.id}>
      <LiveNotifications />
      {isStaff(user.role) ? <ActivityToasts /> : null}
      <AppShell
        header={{ height: 60 }}
        navbar={{
          width: SIDEBAR_WIDTH,
          // Collapses on the shell's md range and below (< lg, 1024 px); full width there.
          breakpoint: `${String(SHELL_BREAKPOINTS.lg / 16)}em`,
          collapsed: { mobile: !mobileOpened, desktop: !sideNav || !desktopOpened },
        }}
        footer={{ height: MINI_PLAYER_HEIGHT, collapsed: !playerShown }}
        padding="md"
      >
        <AppShell.Header>
          <TopBar
            user={user}
            menu={menu}
            layout={layout}
            sidebar={{
              phone: { opened: mobileOpened, toggle: mobile.toggle },
              desktop: { opened: desktopOpened, toggle: desktop.toggle },
            }}
          />
        </AppShell.Header>
        <AppShell.Navbar p="sm" data-testid="sidebar" data-opened={mobileOpened ? 'true' : 'false'}>
          <SidebarMenu role={user.role} context={menu} onNavigate={mobile.close} />
        </AppShell.Navbar>
        <AppShell.Main>
          <AppBreadcrumbs />
          {user.emailVerified ? null : <VerifyEmailBanner email={user.email} />}
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </AppShell.Main>
        <AppShell.Footer data-testid="shell-footer">
          <MiniPlayer />
        </AppShell.Footer>
      </AppShell>
    </LiveProvider>
  );
}

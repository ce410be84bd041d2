import { Box, Burger, Group, Text, UnstyledButton } from '@mantine/core';
import { IconBroadcast } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { User } from '../../features/users/model';
import type { MenuContext } from '../access';
import { CartButton } from '../../features/cart/components/cart-button';
import { SocketIndicator } from '../../features/live/components/socket-indicator';
import { NotificationsMenu } from '../../features/notifications/components/notifications-menu';
import { ProfileMenu } from './profile-menu';
import { TopMenu } from './top-menu';

/** A burger's sidebar: whether it is open, and how to open or close it. */
interface SidebarToggle {
  opened: boolean;
  toggle: () => void;
}

interface TopBarProps {
  user: User;
  menu: MenuContext;
  layout: 'side' | 'top';
  /** The sidebar below md, full width; and at md and above, in the side layout. */
  sidebar: { phone: SidebarToggle; desktop: SidebarToggle };
}

/** The navbar: burger, logo → home, (top layout: menu), live indicator, notifications, cart, profile. */
export function TopBar(props: TopBarProps): ReactNode {
  const { t } = useTranslation();
  const { user, layout, sidebar } = props;
  // The phone burger and the desktop one look alike and say the same.
  const burger = { size: 'sm', 'aria-label': t('nav.toggleMenu') } as const;
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
      {/* The left side gives way (the top menu folds into "More"); the actions never do. */}
      <Group gap="sm" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
        <Burger opened={sidebar.phone.opened} onClick={sidebar.phone.toggle} hiddenFrom="md" {...burger} data-testid="burger" />
        {layout === 'side' ? <Burger opened={sidebar.desktop.opened} onClick={sidebar.desktop.toggle} visibleFrom="md" {...burger} /> : null}
        <UnstyledButton component={Link} to="/home" aria-label={t('nav.home')} data-testid="logo" className="encore-tap" style={{ flexShrink: 0 }}>
          <Group gap={6} wrap="nowrap">
            <IconBroadcast size={26} color="var(--mantine-primary-color-filled)" />
            <Text fw={800} size="lg" className="encore-logo-word">
              {t('app.name')}
            </Text>
          </Group>
        </UnstyledButton>
        {layout === 'top' ? (
          <Box visibleFrom="md" ms="md" style={{ flex: 1, minWidth: 0 }}>
            <TopMenu role={user.role} context={props.menu} />
          </Box>
        ) : null}
      </Group>
      <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }} className="encore-top-actions" data-testid="top-bar-actions">
        <SocketIndicator />
        <NotificationsMenu />
        <CartButton />
        <ProfileMenu user={user} />
      </Group>
    </Group>
  );
}

import { NavLink, ScrollArea, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { Role } from '../../lib/roles';
import { visibleMenu } from '../access';
import type { MenuContext, MenuItem } from '../access';
import { MenuIconView } from './menu-icons';

function isActive(item: MenuItem, pathname: string): boolean {
  if (item.path && (pathname === item.path || pathname.startsWith(`${item.path}/`))) return true;
  return (item.children ?? []).some((child) => isActive(child, pathname));
}

function Entry({ item, onNavigate }: { item: MenuItem; onNavigate?: () => void }): ReactNode {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const active = isActive(item, pathname);
  if (item.children) {
    return (
      <NavLink
        label={t(item.label)}
        leftSection={<MenuIconView icon={item.icon} />}
        defaultOpened={active}
        active={active}
        variant="subtle"
        data-menu-key={item.key}
      >
        {item.children.map((child) => (
          <Entry key={child.key} item={child} onNavigate={onNavigate} />
        ))}
      </NavLink>
    );
  }
  return (
    <NavLink
      component={Link}
      to={item.path ?? '/home'}
      label={t(item.label)}
      leftSection={<MenuIconView icon={item.icon} />}
      active={active}
      onClick={onNavigate}
      data-menu-key={item.key}
    />
  );
}

/** The sidebar menu: only the entries the role may see. */
export function SidebarMenu({ role, context = {}, onNavigate }: { role: Role; context?: MenuContext; onNavigate?: () => void }): ReactNode {
  const { t } = useTranslation();
  return (
    <ScrollArea type="auto" h="100%">
      <Stack gap={2} component="nav" aria-label={t('nav.menu')}>
        {visibleMenu(role, undefined, context).map((item) => (
          <Entry key={item.key} item={item} onNavigate={onNavigate} />
        ))}
      </Stack>
    </ScrollArea>
  );
}

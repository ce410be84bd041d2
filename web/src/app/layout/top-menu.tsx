import { Button, Group, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { Role } from '../../lib/roles';
import { visibleMenu } from '../access';
import type { MenuContext } from '../access';
import { MenuIconView } from './menu-icons';

/** The same menu laid out in the top bar (navigation layout "top"). */
export function TopMenu({ role, context = {} }: { role: Role; context?: MenuContext }): ReactNode {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <Group gap={4} component="nav" aria-label={t('nav.menu')} wrap="nowrap">
      {visibleMenu(role, undefined, context).map((item) =>
        item.children ? (
          <Menu key={item.key} trigger="click-hover" position="bottom-start">
            <Menu.Target>
              <Button variant="subtle" size="compact-sm" rightSection={<IconChevronDown size={14} />}>
                {t(item.label)}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {item.children.map((child) => (
                <Menu.Item
                  key={child.key}
                  component={Link}
                  to={child.path ?? '/home'}
                  leftSection={<MenuIconView icon={child.icon} size={16} />}
                >
                  {t(child.label)}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        ) : (
          <Button
            key={item.key}
            component={Link}
            to={item.path ?? '/home'}
            variant={pathname === item.path ? 'light' : 'subtle'}
            size="compact-sm"
            data-menu-key={item.key}
          >
            {t(item.label)}
          </Button>
        ),
      )}
    </Group>
  );
}

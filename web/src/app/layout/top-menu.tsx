import { Box, Button, Group, Menu } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { IconChevronDown, IconDots } from '@tabler/icons-react';
import { Fragment, useLayoutEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { Role } from '../../lib/roles';
import { visibleMenu } from '../access';
import type { MenuContext, MenuItem } from '../access';
import { MenuIconView } from './menu-icons';
import { fitCount } from './overflow';

const GAP = 4;

function TopMenuEntry({ item, pathname }: { item: MenuItem; pathname: string }): ReactNode {
  const { t } = useTranslation();
  if (item.children) {
    return (
      <Menu trigger="click-hover" position="bottom-start">
        <Menu.Target>
          <Button variant="subtle" size="compact-sm" rightSection={<IconChevronDown size={14} />} style={{ flexShrink: 0 }}>
            {t(item.label)}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {item.children.map((child) => (
            <Menu.Item key={child.key} component={Link} to={child.path ?? '/home'} leftSection={<MenuIconView icon={child.icon} size={16} />}>
              {t(child.label)}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    );
  }
  return (
    <Button
      component={Link}
      to={item.path ?? '/home'}
      variant={pathname === item.path ? 'light' : 'subtle'}
      size="compact-sm"
      data-menu-key={item.key}
      style={{ flexShrink: 0 }}
    >
      {t(item.label)}
    </Button>
  );
}

/** The entries that do not fit in the bar, in a "More" menu (groups as labelled sections). */
function OverflowMenu({ items }: { items: MenuItem[] }): ReactNode {
  const { t } = useTranslation();
  const { t: tl } = useTranslation('look');
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="subtle" size="compact-sm" rightSection={<IconDots size={14} />} style={{ flexShrink: 0 }} data-testid="top-menu-more">
          {tl('nav.more')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown data-testid="top-menu-overflow">
        {items.map((item) =>
          item.children ? (
            <Fragment key={item.key}>
              <Menu.Label>{t(item.label)}</Menu.Label>
              {item.children.map((child) => (
                <Menu.Item key={child.key} component={Link} to={child.path ?? '/home'} leftSection={<MenuIconView icon={child.icon} size={16} />}>
                  {t(child.label)}
                </Menu.Item>
              ))}
            </Fragment>
          ) : (
            <Menu.Item key={item.key} component={Link} to={item.path ?? '/home'} leftSection={<MenuIconView icon={item.icon} size={16} />}>
              {t(item.label)}
            </Menu.Item>
          ),
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The same menu laid out in the top bar (navigation layout "top"). What does not fit in
 * the room the bar leaves goes into a "More" menu, so the cart and the avatar stay in view.
 * The entries are measured in a hidden copy of the row (widths change with the language). */
export function TopMenu({ role, context = {} }: { role: Role; context?: MenuContext }): ReactNode {
  const { t, i18n } = useTranslation();
  const { t: tl } = useTranslation('look');
  const { pathname } = useLocation();
  const items = visibleMenu(role, undefined, context);
  const { ref: room, width: available } = useElementSize();
  const measure = useRef<HTMLDivElement>(null);
  const [widths, setWidths] = useState<{ items: number[]; more: number } | null>(null);
  const signature = `${i18n.language}|${items.map((item) => item.key).join(',')}`;
  useLayoutEffect(() => {
    const read = (): void => {
      const row = measure.current;
      if (!row) return;
      const children = [...row.children] as HTMLElement[];
      const more = children.pop()?.offsetWidth ?? 0;
      setWidths({ items: children.map((child) => child.offsetWidth), more });
    };
    read();
    // A web font arriving later changes the widths too.
    if ('fonts' in document) void document.fonts.ready.then(read);
    // Re-measure when the entries or their language change.
  }, [signature]);
  // Until measured, everything is shown (the first layout pass, and jsdom).
  const shown = widths && available > 0 ? fitCount(widths.items, available, GAP, widths.more) : items.length;
  return (
    <Box ref={room} style={{ flex: 1, minWidth: 0, position: 'relative' }}>
      <Group gap={GAP} component="nav" aria-label={t('nav.menu')} wrap="nowrap" data-testid="top-menu">
        {items.slice(0, shown).map((item) => (
          <TopMenuEntry key={item.key} item={item} pathname={pathname} />
        ))}
        {shown < items.length ? <OverflowMenu items={items.slice(shown)} /> : null}
      </Group>
      {/* A zero-size, clipped box: the measured row takes no room and makes nothing scroll. */}
      <div aria-hidden style={{ position: 'absolute', width: 0, height: 0, overflow: 'hidden', visibility: 'hidden', pointerEvents: 'none' }}>
      <Group ref={measure} gap={GAP} wrap="nowrap" style={{ width: 'max-content' }}>
        {items.map((item) => (
          <Button key={item.key} variant="subtle" size="compact-sm" rightSection={item.children ? <IconChevronDown size={14} /> : null} tabIndex={-1}>
            {t(item.label)}
          </Button>
        ))}
        <Button variant="subtle" size="compact-sm" rightSection={<IconDots size={14} />} tabIndex={-1}>
          {tl('nav.more')}
        </Button>
      </Group>
      </div>
    </Box>
  );
}

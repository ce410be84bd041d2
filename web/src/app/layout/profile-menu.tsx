import { Group, Menu, Modal, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconCompass,
  IconReceipt,
  IconHelpCircle,
  IconLanguage,
  IconLogout,
  IconSettings,
  IconUser,
  IconUserCircle,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { signOut } from '../../features/auth/api';
import type { User } from '../../features/users/model';
import { UserAvatar } from '../../features/users/components/user-avatar';
import { LanguagePicker } from '../../features/preferences/components/language-picker';
import { helpPath } from '../access';
import { queryClient } from '../../lib/query-client';

export function ProfileMenu({ user }: { user: User }): ReactNode {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [languageOpen, languageModal] = useDisclosure(false);

  const logout = (): void => {
    // Signs out, then goes to login whatever the outcome.
    void signOut()
      .catch(() => undefined)
      .finally(() => {
        queryClient.clear();
        void navigate('/auth/login');
      });
  };

  return (
    <>
      <Menu position="bottom-end" width={240} withinPortal>
        <Menu.Target>
          <UnstyledButton aria-label={t('profile.open')} data-testid="profile-menu" className="encore-tap">
            <UserAvatar user={user} size={36} />
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Group gap="sm" p="xs" wrap="nowrap">
            <UserAvatar user={user} size={40} />
            <div style={{ minWidth: 0 }}>
              <Text size="sm" fw={600} truncate>
                {user.fullname || user.email}
              </Text>
              <Text size="xs" c="dimmed" truncate>
                {user.email}
              </Text>
            </div>
          </Group>
          <Menu.Divider />
          {/* Spec 2: profile goes to preferences; the account is its sign-in and security part. */}
          <Menu.Item component={Link} to="/preferences" leftSection={<IconUser size={16} />} data-testid="profile-profile">
            {t('profile.profile')}
          </Menu.Item>
          <Menu.Item component={Link} to="/preferences#account" leftSection={<IconUserCircle size={16} />} data-testid="profile-account">
            {t('profile.account')}
          </Menu.Item>
          <Menu.Item component={Link} to="/settings" leftSection={<IconSettings size={16} />}>
            {t('profile.settings')}
          </Menu.Item>
          <Menu.Item component={Link} to="/events" leftSection={<IconCompass size={16} />}>
            {t('profile.explore')}
          </Menu.Item>
          <Menu.Item component={Link} to="/my-orders" leftSection={<IconReceipt size={16} />} data-testid="profile-orders">
            {t('profile.orders')}
          </Menu.Item>
          <Menu.Item component={Link} to={helpPath()} leftSection={<IconHelpCircle size={16} />}>
            {t('profile.help')}
          </Menu.Item>
          <Menu.Item leftSection={<IconLanguage size={16} />} onClick={languageModal.open} data-testid="change-language">
            {t('profile.changeLanguage')}
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={logout} data-testid="logout">
            {t('profile.logout')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal opened={languageOpen} onClose={languageModal.close} title={t('profile.changeLanguage')} centered>
        <LanguagePicker />
      </Modal>
    </>
  );
}


import { Avatar } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { User } from '../model';
import { avatarQueryOptions } from '../queries';

function initials(user: User): string {
  const source = user.fullname || user.email;
  return source
    .split(/[\s@.]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part.charAt(0).toUpperCase())
    .join('');
}

export function UserAvatar({ user, size = 36 }: { user: Pick<User, 'avatar' | 'fullname' | 'email'> & Partial<User>; size?: number }): ReactNode {
  const url = user.avatar ?? '';
  const { data } = useQuery({ ...avatarQueryOptions(url), enabled: url.length > 0 });
  return (
    <Avatar src={url ? (data ?? null) : null} size={size} radius="xl" color="encore" alt={user.fullname || user.email}>
      {initials(user as User)}
    </Avatar>
  );
}

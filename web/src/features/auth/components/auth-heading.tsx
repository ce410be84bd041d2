import { Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The title and the line under it that open every sign-in page. */
export function AuthHeading({ title, subtitle }: { title: string; subtitle: string }): ReactNode {
  return (
    <div>
      <Title order={2}>{title}</Title>
      <Text c="dimmed" size="sm">
        {subtitle}
      </Text>
    </div>
  );
}

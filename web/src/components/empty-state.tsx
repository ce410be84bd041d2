import { Card, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMoodEmpty } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** An honest empty state for lists and for pages whose content arrives in a later step. */
export function EmptyState({ title, description, action }: { title: string; description?: string; action?: ReactNode }): ReactNode {
  return (
    <Card withBorder padding="xl" data-testid="empty-state">
      <Stack align="center" gap="sm" py="lg">
        <ThemeIcon size={56} radius="xl" variant="light">
          <IconMoodEmpty size={32} />
        </ThemeIcon>
        <Title order={4} ta="center">
          {title}
        </Title>
        {description ? (
          <Text c="dimmed" ta="center" maw={520}>
            {description}
          </Text>
        ) : null}
        {action}
      </Stack>
    </Card>
  );
}

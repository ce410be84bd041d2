import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface StatusPanelProps {
  /** What stands above the title: an icon, or a status code. */
  mark: ReactNode;
  title: string;
  text: string;
  /** Where to go next, usually one button. */
  action: ReactNode;
  /** Lines under the text, before the action. */
  children?: ReactNode;
  titleTestId?: string;
  testId?: string;
}

/** A centred "what happened, where next" panel: check your e-mail, link spent, 403, 404. */
export function StatusPanel({ mark, title, text, action, children, titleTestId, testId }: StatusPanelProps): ReactNode {
  return (
    <Stack align="center" gap="md" ta="center" maw={560} data-testid={testId}>
      {mark}
      <Title order={2} data-testid={titleTestId}>
        {title}
      </Title>
      <Text c="dimmed">{text}</Text>
      {children}
      {action}
    </Stack>
  );
}

import { Box, Card, Group, Stack, Text, useMantineTheme } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';

/**
 * Below Mantine's `sm` breakpoint a table of many columns no longer fits: it would scroll
 * sideways. There a list page shows each row as a card instead (`RowCard`); from `sm` up, the
 * table. Read before the first paint, so that a phone never shows the table first.
 */
export function useRowCards(): boolean {
  const theme = useMantineTheme();
  return useMediaQuery(`not all and (min-width: ${theme.breakpoints.sm})`, false, { getInitialValueInEffect: false });
}

/** One of a row's cells on its card: the column's name and what the cell shows. */
export interface RowField {
  label: string;
  value: ReactNode;
  testId?: string;
}

/** The cards of a list, one above the other, named with the table's test id. */
export function RowCards({ testId, children }: { testId?: string; children: ReactNode }): ReactNode {
  return (
    <Stack gap="sm" data-testid={testId}>
      {children}
    </Stack>
  );
}

/**
 * A table's row as a card: its heading (the cell that names the row) with what stands beside
 * it (a badge, a menu), then each other cell as a label and its value, then the row's actions.
 * The row's test id stays on the card, and each cell's on its value.
 */
export function RowCard({
  heading,
  aside,
  fields,
  actions,
  testId,
}: {
  heading: ReactNode;
  aside?: ReactNode;
  fields: readonly RowField[];
  actions?: ReactNode;
  testId?: string;
}): ReactNode {
  return (
    <Card withBorder padding="sm" data-testid={testId}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Box miw={0} style={{ flex: 1, overflowWrap: 'anywhere' }}>
          {heading}
        </Box>
        {aside ? <Box style={{ flexShrink: 0 }}>{aside}</Box> : null}
      </Group>
      <Box component="dl" m={0} mt="xs">
        {fields.map((field) => (
          <Group key={field.label} justify="space-between" align="center" wrap="nowrap" gap="sm" py={4}>
            <Text component="dt" size="sm" c="dimmed" style={{ flexShrink: 0 }}>
              {field.label}
            </Text>
            <Box component="dd" m={0} fz="sm" ta="end" miw={0} style={{ overflowWrap: 'anywhere' }} data-testid={field.testId}>
              {field.value}
            </Box>
          </Group>
        ))}
      </Box>
      {actions ? (
        <Group justify="flex-end" gap="xs" mt="xs">
          {actions}
        </Group>
      ) : null}
    </Card>
  );
}

import { Box, Card, Group, Stack, Table, Text, useMantineTheme } from '@mantine/core';
import type { TableProps } from '@mantine/core';
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

/**
 * A column of a `RowTable`: its head (a card's label for the cell) and where its cell stands
 * on the row's card: the heading, beside the heading, under the fields as the row's actions,
 * or (the default) a field of its own.
 */
export interface RowColumn<K extends string> {
  key: K;
  label: string;
  onCard?: 'heading' | 'aside' | 'actions';
  /** A column of controls: its head names it to screen readers only, and its controls stand
   * side by side at the cell's end. */
  controls?: boolean;
  /** On the table's cell and on the card's value. */
  testId?: string;
}

/**
 * A list's rows as a table of `columns`, or below `sm` each as a card (`useRowCards`), every
 * cell shown from `cellsOf`: the columns are named once for both. The list keeps `testId`,
 * each row `rowTestId`, either way.
 */
export function RowTable<T extends { id: string }, K extends string>({
  rows,
  columns,
  cellsOf,
  testId,
  rowTestId,
  tableProps,
}: {
  rows: readonly T[];
  columns: readonly RowColumn<K>[];
  cellsOf: (row: T) => Record<K, ReactNode>;
  testId: string;
  rowTestId: string;
  tableProps?: TableProps;
}): ReactNode {
  const cards = useRowCards();
  if (cards) {
    const fields = columns.filter((column) => column.onCard === undefined);
    const placed = (cell: Record<K, ReactNode>, place: RowColumn<K>['onCard']): ReactNode => {
      const column = columns.find((each) => each.onCard === place);
      return column ? cell[column.key] : null;
    };
    return (
      <RowCards testId={testId}>
        {rows.map((row) => {
          const cell = cellsOf(row);
          return (
            <RowCard
              key={row.id}
              testId={rowTestId}
              heading={placed(cell, 'heading')}
              aside={placed(cell, 'aside')}
              fields={fields.map((column) => ({ label: column.label, value: cell[column.key], testId: column.testId }))}
              actions={placed(cell, 'actions')}
            />
          );
        })}
      </RowCards>
    );
  }
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table {...tableProps} data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) =>
              column.controls ? <Table.Th key={column.key} aria-label={column.label} /> : <Table.Th key={column.key}>{column.label}</Table.Th>,
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const cell = cellsOf(row);
            return (
              <Table.Tr key={row.id} data-testid={rowTestId}>
                {columns.map((column) => (
                  <Table.Td key={column.key} data-testid={column.testId}>
                    {column.controls ? (
                      <Group gap={4} wrap="nowrap" justify="flex-end">
                        {cell[column.key]}
                      </Group>
                    ) : (
                      cell[column.key]
                    )}
                  </Table.Td>
                ))}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

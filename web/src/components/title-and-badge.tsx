import { Flex } from '@mantine/core';
import type { ReactNode } from 'react';

/** A title and its badge: side by side from `sm`, the badge above the title on a phone,
 * where beside it the badge would squeeze the title to a few words (the spec's xs
 * breakpoint is 0, hence sm). `align`: how the two line up side by side. */
export function TitleAndBadge({ badge, align = 'flex-start', children }: { badge: ReactNode; align?: 'flex-start' | 'center'; children: ReactNode }): ReactNode {
  return (
    <Flex direction={{ base: badge ? 'column-reverse' : 'row', sm: 'row' }} justify="space-between" align={{ base: 'flex-start', sm: align }} gap="xs">
      {children}
      {badge}
    </Flex>
  );
}

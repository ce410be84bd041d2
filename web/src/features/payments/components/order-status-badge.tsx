import { Badge } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ORDER_STATUS_COLOR } from '../model';
import type { OrderStatus } from '../model';

/** An order's state in its colour, in the same words on every page. */
export function OrderStatusBadge({ status, testId }: { status: OrderStatus; testId?: string }): ReactNode {
  const { t } = useTranslation('common');
  return (
    <Badge color={ORDER_STATUS_COLOR[status]} variant="light" data-testid={testId}>
      {t(`cart.status.${status}`)}
    </Badge>
  );
}
